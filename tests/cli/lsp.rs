//! `grimoire lsp` spoken to as an editor does: JSON-RPC over the real binary's
//! standard streams.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_grimoire"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start grimoire lsp");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (send, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = 0;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        length = n.parse().expect("length");
                    }
                }
                let mut body = vec![0; length];
                if reader.read_exact(&mut body).is_err() {
                    return;
                }
                let value: Value = serde_json::from_slice(&body).expect("JSON");
                if send.send(value).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            messages,
            next_id: 1,
        }
    }

    fn send(&mut self, value: Value) {
        let body = value.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
        self.stdin.flush().expect("flush");
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let msg = self.next();
            if msg["id"] == id {
                return msg["result"].clone();
            }
        }
    }

    fn next(&mut self) -> Value {
        self.messages
            .recv_timeout(Duration::from_secs(20))
            .expect("a message from the server")
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        loop {
            let msg = self.next();
            if msg["method"] == "textDocument/publishDiagnostics" && msg["params"]["uri"] == uri {
                return msg["params"]["diagnostics"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
            }
        }
    }
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn an_editor_session_gets_diagnostics_hover_completion_definition_and_formatting() {
    let mut c = Client::start();
    let init = c.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(&root()), "capabilities": {}}),
    );
    assert_eq!(init["capabilities"]["hoverProvider"], true, "{init}");
    c.notify("initialized", json!({}));

    // A card file the designer is writing, in the bundled deck's folder.
    let card = root().join("cards/arcomage/scratch-lsp-test.edn");
    let card_uri = uri(&card);
    let text = "{:card \"Test\" :type :bricks :cost 1\n :text \"+1 Wall\"\n :effects [{:effected :you :resource :wal :amount [random 1 2]}]}\n";
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": card_uri, "languageId": "grimoire", "version": 1, "text": text}}),
    );
    let diags = c.diagnostics(&card_uri);
    assert_eq!(diags.len(), 1, "{diags:?}");
    let d = &diags[0];
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("unknown resource `:wal`"),
        "{d}"
    );
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("did you mean `:wall`?"),
        "{d}"
    );
    assert_eq!(d["code"], "E0205", "{d}");
    // Line 3, characters 37..41: `check` says 3:38, one-based.
    assert_eq!(
        d["range"]["start"],
        json!({"line": 2, "character": 37}),
        "{d}"
    );
    assert_eq!(
        d["range"]["end"],
        json!({"line": 2, "character": 41}),
        "{d}"
    );

    // Fixed: the diagnostics go.
    let fixed = text.replace(":wal ", ":wall ");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": card_uri, "version": 2}, "contentChanges": [{"text": fixed}]}),
    );
    assert!(c.diagnostics(&card_uri).is_empty());

    // Hover: an operator from the registry, an attribute from the rule set.
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": card_uri}, "position": {"line": 2, "character": 53}}),
    );
    let shown = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(shown.contains("[random lo hi]"), "{hover}");
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": card_uri}, "position": {"line": 2, "character": 40}}),
    );
    let shown = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(shown.starts_with("attribute `:wall`"), "{hover}");

    // Completion after `:resource :q`: the rule set's attributes and operations.
    let partial =
        "{:card \"T\" :type :bricks :cost 1 :text \"x\"\n :effects [{:effected :you :resource :q";
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": card_uri, "version": 3}, "contentChanges": [{"text": partial}]}),
    );
    c.diagnostics(&card_uri);
    let items = c.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": card_uri}, "position": {"line": 1, "character": 39}}),
    );
    let labels: Vec<&str> = items
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|i| i["label"].as_str())
        .collect();
    assert_eq!(labels, [":quarry"], "{items}");
    // At the head of a vector: operators.
    let items = c.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": card_uri}, "position": {"line": 1, "character": 11}}),
    );
    assert!(
        items
            .as_array()
            .expect("items")
            .iter()
            .any(|i| i["label"] == "random"),
        "{items}"
    );

    // Formatting a messy file: one edit with the formatted text.
    let messy = "{:card \"Test\" :type :bricks :cost 1\n      :text \"+1 Wall\"   \n :effects [{:effected :you :resource :wall :amount 1}]}\n";
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": card_uri, "version": 4}, "contentChanges": [{"text": messy}]}),
    );
    c.diagnostics(&card_uri);
    let edits = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": card_uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    let new_text = edits[0]["newText"].as_str().expect("an edit");
    assert!(new_text.contains("\n :text \"+1 Wall\"\n"), "{new_text}");

    // A scenario: completion of card names, go to a card's definition.
    let scenario = root().join("tests/scenarios/arcomage/lsp-test.edn");
    let scenario_uri = uri(&scenario);
    let text = "{:scenario \"walls\" :play [\"Foundations\" \"Foun";
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": scenario_uri, "languageId": "grimoire", "version": 1, "text": text}}),
    );
    c.diagnostics(&scenario_uri);
    let items = c.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": scenario_uri}, "position": {"line": 0, "character": 46}}),
    );
    assert!(
        items
            .as_array()
            .expect("items")
            .iter()
            .any(|i| i["label"] == "\"Foundations\""),
        "{items}"
    );
    let found = c.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": scenario_uri}, "position": {"line": 0, "character": 30}}),
    );
    assert!(
        found["uri"]
            .as_str()
            .unwrap_or_default()
            .ends_with("cards/arcomage/bricks.edn"),
        "{found}"
    );

    let shutdown = c.request("shutdown", Value::Null);
    assert!(shutdown.is_null());
    c.notify("exit", Value::Null);
    let status = c.child.wait().expect("exit");
    assert!(status.success());
}

#[test]
fn the_textmate_grammar_colours_every_operator_of_the_registry() {
    let text = std::fs::read_to_string(root().join("editors/grimoire.tmLanguage.json"))
        .expect("editors/grimoire.tmLanguage.json");
    let grammar: Value = serde_json::from_str(&text).expect("JSON");
    let pattern = grammar["repository"]["operator"]["match"]
        .as_str()
        .expect("operator pattern");
    let inner = pattern
        .split_once("\\s*(")
        .and_then(|(_, rest)| rest.split_once(")(?="))
        .map(|(alts, _)| alts)
        .expect("an alternation");
    let mut listed: Vec<String> = inner.split('|').map(|a| a.replace('\\', "")).collect();
    listed.sort();
    let mut ops: Vec<String> = grimoire::check::ops::OPERATORS
        .iter()
        .map(|o| o.name.to_string())
        .collect();
    ops.sort();
    assert_eq!(listed, ops);
}

/// A scenario of a designer's project names the project's own cards: the
/// editor checks it with them, as `grimoire check` does (it used to mark
/// them unknown while completion offered them).
#[test]
fn a_project_scenario_is_checked_with_the_project_cards() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("lsp-project");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let made = Command::new(env!("CARGO_BIN_EXE_grimoire"))
        .args(["new", "spells"])
        .current_dir(&dir)
        .output()
        .expect("grimoire new");
    assert!(made.status.success(), "{made:?}");
    let game = dir.join("spells");
    let mut c = Client::start();
    c.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(&game), "capabilities": {}}),
    );
    c.notify("initialized", json!({}));
    let file = game.join("tests/scenarios/spells/new.edn");
    let file_uri = uri(&file);
    let text = "{:scenario \"Mend\" :given {:you {:mana 2}} :play [\"Mend\"] :expect {:you {:health 24}}}\n";
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": file_uri, "languageId": "grimoire", "version": 1, "text": text}}),
    );
    assert_eq!(c.diagnostics(&file_uri), Vec::<Value>::new());
    let wrong = text.replace("\"Mend\"]", "\"Mendd\"]");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": file_uri, "version": 2}, "contentChanges": [{"text": wrong}]}),
    );
    let diags = c.diagnostics(&file_uri);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert!(
        diags[0]["message"].as_str().unwrap_or("").contains("Mend"),
        "{diags:?}"
    );
    c.request("shutdown", Value::Null);
    c.notify("exit", Value::Null);
    let _ = c.child.wait();
}
