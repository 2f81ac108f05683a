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
    stdin: Option<ChildStdin>,
    messages: Receiver<Value>,
    next_id: i64,
}

impl Client {
    /// The server, under a memory limit: a regression that reads for ever
    /// fails the test rather than taking the machine's memory.
    fn start() -> Client {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg("ulimit -v 4194304; exec \"$0\" lsp")
            .arg(env!("CARGO_BIN_EXE_grimoire"))
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
            stdin: Some(stdin),
            messages,
            next_id: 1,
        }
    }

    fn send(&mut self, value: Value) {
        let body = value.to_string();
        self.raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
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

    /// Bytes as they are, framed or not.
    fn raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("input open");
        stdin.write_all(bytes).expect("write");
        stdin.flush().expect("flush");
    }

    /// Closes the server's input, as a client that went away.
    fn close(&mut self) {
        self.stdin = None;
    }

    /// The server's exit code, waiting at most 20 s.
    fn exit_code(&mut self) -> Option<i32> {
        for _ in 0..1000 {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("the server did not exit")
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

impl Drop for Client {
    /// A server a failed test left running is stopped.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
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

    // After a trigger's `:on :d`: the sorts of event, each with what it means.
    let partial = "{:card \"T\" :type :bricks :cost 1 :text \"x\"\n :triggers [{:on :d";
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": card_uri, "version": 3}, "contentChanges": [{"text": partial}]}),
    );
    c.diagnostics(&card_uri);
    let items = c.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": card_uri}, "position": {"line": 1, "character": 19}}),
    );
    let labels: Vec<&str> = items
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|i| i["label"].as_str())
        .collect();
    assert_eq!(
        labels,
        [":damaged", ":drawn", ":discarded", ":dies"],
        "{items}"
    );

    // Keys: of the map the cursor is in, found from the keys leading to it.
    let key_labels = |c: &mut Client, text: &str, version: u32| -> Vec<String> {
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": card_uri, "version": version}, "contentChanges": [{"text": text}]}),
        );
        c.diagnostics(&card_uri);
        let line = text.lines().count() - 1;
        let character = text.lines().last().map_or(0, str::len);
        let items = c.request(
            "textDocument/completion",
            json!({"textDocument": {"uri": card_uri}, "position": {"line": line, "character": character}}),
        );
        items
            .as_array()
            .expect("items")
            .iter()
            .filter_map(|i| i["label"].as_str().map(str::to_string))
            .collect()
    };
    let card = "{:card \"T\" :type :bricks :cost 1 :text \"x\"\n";
    assert_eq!(
        key_labels(&mut c, &format!("{card} :ab"), 5),
        [":abilities"]
    );
    assert_eq!(
        key_labels(&mut c, &format!("{card} :abilities {{:zap {{:co"), 6),
        [":cost"]
    );
    assert_eq!(
        key_labels(&mut c, &format!("{card} :triggers [{{:on :dies :wh"), 7),
        [":where"]
    );
    assert_eq!(
        key_labels(&mut c, &format!("{card} :targets {{:victim {{:p"), 8),
        [":pick"]
    );
    // A value is due after a key: no key is offered there.
    assert!(key_labels(&mut c, &format!("{card} :abilities {{:zap {{:cost :c"), 9).is_empty());
    // Hovering over a key says what it means in that map.
    let text = format!("{card} :triggers [{{:on :dies :once-per-turn true :effects []}}]}}");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": card_uri, "version": 10}, "contentChanges": [{"text": text}]}),
    );
    c.diagnostics(&card_uri);
    let at = text
        .lines()
        .nth(1)
        .expect("line")
        .find(":once")
        .expect("key")
        + 2;
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": card_uri}, "position": {"line": 1, "character": at}}),
    );
    let shown = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(
        shown.starts_with("key `:once-per-turn` of a trigger: "),
        "{hover}"
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

/// Initialized, as an editor starts a session, in the repository.
fn initialized() -> Client {
    let mut c = Client::start();
    c.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(&root()), "capabilities": {}}),
    );
    c.notify("initialized", json!({}));
    c
}

/// Malformed and oversized messages are answered with JSON-RPC errors and the
/// session goes on; `exit` without `shutdown` exits 1 (issue 29).
#[test]
fn the_server_answers_malformed_and_oversized_messages_and_goes_on() {
    let mut c = initialized();
    c.raw(b"Content-Length: 9\r\n\r\n{not json");
    let error = c.next();
    assert_eq!(error["id"], Value::Null, "{error}");
    assert_eq!(error["error"]["code"], -32700, "{error}");
    c.raw(b"Content-Length: 17\r\n\r\n{\"jsonrpc\":\"2.0\"}");
    assert_eq!(c.next()["error"]["code"], -32600);
    // Over the 64 MiB limit by one byte: skipped unread, never allocated.
    let over = (64 << 20) + 1;
    c.raw(format!("Content-Length: {over}\r\n\r\n").as_bytes());
    let spaces = vec![b' '; 1 << 20];
    for _ in 0..64 {
        c.raw(&spaces);
    }
    c.raw(b" ");
    let error = c.next();
    assert_eq!(error["error"]["code"], -32600, "{error}");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("at most 64 MiB"),
        "{error}"
    );
    // Still serving.
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": "file:///nowhere.edn"}, "position": {"line": 0, "character": 0}}),
    );
    assert!(hover.is_null(), "{hover}");
    c.notify("exit", Value::Null);
    assert_eq!(c.exit_code(), Some(1));
}

/// The repro: a 40-byte header asking for a terabyte aborted the server.
#[test]
fn a_terabyte_content_length_is_never_allocated() {
    let mut c = initialized();
    c.raw(b"Content-Length: 999999999999\r\n\r\n{}");
    c.close();
    assert_eq!(c.exit_code(), Some(0));
}

/// 200,000 errors in a 400 KB document: the first 200 within seconds, the
/// last saying how many more (every position was found from the start of the
/// text: minutes).
#[test]
fn a_document_with_200000_errors_gets_its_first_200_quickly() {
    let mut c = initialized();
    let file_uri = uri(&root().join("cards/arcomage/scratch-lsp-many.edn"));
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": file_uri, "languageId": "grimoire", "version": 1, "text": "}\n".repeat(200_000)}}),
    );
    let diags = c.diagnostics(&file_uri);
    assert_eq!(diags.len(), 200);
    assert_eq!(
        diags[199]["range"]["start"],
        json!({"line": 199, "character": 0})
    );
    let last = diags[199]["message"].as_str().unwrap_or("");
    assert!(
        last.ends_with("(199800 more diagnostics in this document are not shown)"),
        "{last}"
    );
}

/// A document past 16 MiB is not checked as it is typed: one E0117 says so.
#[test]
fn a_document_over_the_limit_gets_one_diagnostic_and_no_answers() {
    let mut c = initialized();
    let file_uri = uri(&root().join("cards/arcomage/scratch-lsp-huge.edn"));
    let text = format!("{}\n", ";".repeat(17 << 20));
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": file_uri, "languageId": "grimoire", "version": 1, "text": text}}),
    );
    let diags = c.diagnostics(&file_uri);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "E0117");
    assert!(
        diags[0]["message"]
            .as_str()
            .unwrap_or("")
            .contains("over the 16 MiB"),
        "{diags:?}"
    );
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": file_uri}, "position": {"line": 0, "character": 0}}),
    );
    assert!(hover.is_null());
}

/// A scenario naming `/dev/zero` as its rule set: its diagnostics and a hover
/// answer at once (hover read the device for ever).
#[test]
fn a_scenario_naming_dev_zero_is_answered() {
    let mut c = initialized();
    let file_uri = uri(&root().join("tests/scenarios/arcomage/scratch-lsp-zero.edn"));
    let text = "{:scenario \"x\" :rules :/dev/zero :play [\"Foundations\"]}\n";
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": file_uri, "languageId": "grimoire", "version": 1, "text": text}}),
    );
    let diags = c.diagnostics(&file_uri);
    assert!(
        diags.iter().any(|d| d["code"] == "E0703"
            && d["message"]
                .as_str()
                .unwrap_or("")
                .contains("not a regular file (a device)")),
        "{diags:?}"
    );
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": file_uri}, "position": {"line": 0, "character": 44}}),
    );
    assert!(hover.is_null(), "{hover}");
    c.request("shutdown", Value::Null);
    c.notify("exit", Value::Null);
    assert_eq!(c.exit_code(), Some(0));
}
