//! `grimoire lsp`: a language server over standard input and output, so a
//! designer's editor shows what `grimoire check` says as they type.
//!
//! It speaks the Language Server Protocol with `lsp-server`'s message types
//! over its own bounded transport ([`super::jsonrpc`]: no size a client
//! writes is trusted) and handshake, with messages as JSON values: full-text
//! synchronisation, diagnostics on open and change (the same as `check`, same
//! spans), hover (operators from the registry; roles, attributes, params,
//! operations, timings, statuses and kinds from the rule set's docs; cards),
//! completion (roles after `:effected`, attributes and operations after
//! `:resource`, statuses after `:acquire`, operators at the head of a vector,
//! card names in strings), go to definition (cards and statuses), and
//! formatting through `grimoire fmt`. Positions are UTF-16, as the protocol's
//! default.
//!
//! [`Server`] holds the state and turns one message into the messages to send;
//! [`serve`] runs a session (initialize, shutdown, exit) on two streams and
//! [`lsp`] on the standard ones. A document past [`MAX_DOCUMENT_BYTES`] is
//! not checked as it is typed, and a document's first [`MAX_PER_FILE`]
//! diagnostics are published, as `check` shows them.

use crate::ids::AttrId;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lsp_server::{Message, Notification, Request, Response};
use serde_json::{Value, json};

use super::jsonrpc::{self, Incoming};
use super::{MAX_PER_FILE, Output};
use crate::check::defs::DefKind;
use crate::check::ops::OPERATORS;
use crate::check::rules::RuleSet;
use crate::diag::{Code, Severity, Source};
use crate::files;
use crate::ids::OpId;
use crate::ids::RoleId;
use crate::syntax::LineIndex;

/// Runs the server on standard input and output until the client exits.
pub fn lsp() -> Output {
    serve(&mut std::io::stdin().lock(), &mut std::io::stdout().lock())
}

/// Where a session is: waiting for `initialize`, serving, or shut down and
/// waiting for `exit`.
enum Session {
    Starting,
    Serving(Server),
    ShutDown,
}

/// Serves the client on `input` and `output` until it exits: exit code 0
/// after `shutdown` then `exit` (or at the end of the input once
/// initialized), 1 on `exit` without `shutdown` (as the protocol says), 2
/// when the stream's framing is lost or the client goes away first.
/// Malformed and oversized messages are answered with a JSON-RPC error and
/// the session goes on.
pub fn serve(input: &mut impl std::io::BufRead, output: &mut impl std::io::Write) -> Output {
    let mut session = Session::Starting;
    loop {
        let msg = match jsonrpc::read(input) {
            Ok(Incoming::Message(msg)) => msg,
            Ok(Incoming::Refused { id, code, message }) => {
                if jsonrpc::write_error(output, id, code, &message).is_err() {
                    return Output::usage("lsp: the client went away");
                }
                continue;
            }
            Ok(Incoming::End) => {
                return match session {
                    Session::Starting => Output::usage("lsp: the input ended before `initialize`"),
                    _ => Output::default(),
                };
            }
            Err(e) => return Output::usage(format!("lsp: {e}")),
        };
        if let Message::Notification(n) = &msg
            && n.method == "exit"
        {
            return match session {
                Session::ShutDown => Output::default(),
                _ => Output {
                    code: 1,
                    stderr: "lsp: `exit` without `shutdown`\n".to_string(),
                    ..Output::default()
                },
            };
        }
        let replies = match (&mut session, msg) {
            (Session::Serving(_), Message::Request(req)) if req.method == "shutdown" => {
                session = Session::ShutDown;
                vec![Response::new_ok(req.id, Value::Null).into()]
            }
            (Session::Serving(server), msg) => server.handle(msg),
            (Session::Starting, Message::Request(req)) if req.method == "initialize" => {
                session = Session::Serving(Server::new(&req.params));
                let answer = json!({"capabilities": Server::capabilities()});
                vec![Response::new_ok(req.id, answer).into()]
            }
            (Session::Starting, Message::Request(req)) => vec![
                Response::new_err(
                    req.id,
                    lsp_server::ErrorCode::ServerNotInitialized as i32,
                    format!("{}: the server is not initialized yet", req.method),
                )
                .into(),
            ],
            (Session::ShutDown, Message::Request(req)) => vec![
                Response::new_err(
                    req.id,
                    lsp_server::ErrorCode::InvalidRequest as i32,
                    format!(
                        "{}: the server is shut down; only `exit` is read",
                        req.method
                    ),
                )
                .into(),
            ],
            // Notifications before `initialize` or after `shutdown`, and
            // responses, ask for nothing.
            _ => Vec::new(),
        };
        for reply in replies {
            if jsonrpc::write(output, reply).is_err() {
                return Output::usage("lsp: the client went away");
            }
        }
    }
}

/// The largest document the server checks as it is typed: 16 MiB, far past
/// any card file, so that each keystroke's check stays quick; a larger one
/// gets one diagnostic saying so (`grimoire check` reads it whole) and no
/// answers.
pub const MAX_DOCUMENT_BYTES: usize = 16 << 20;

/// The open documents and where the workspace is.
#[derive(Debug, Default)]
pub struct Server {
    docs: HashMap<String, String>,
    root: Option<PathBuf>,
}

impl Server {
    /// What the server can do, for the `initialize` answer.
    pub fn capabilities() -> Value {
        json!({
            "textDocumentSync": 1,
            "hoverProvider": true,
            "completionProvider": {"triggerCharacters": [":", "[", "\""]},
            "definitionProvider": true,
            "documentFormattingProvider": true,
        })
    }

    /// A server for the client's `initialize` parameters (its workspace root).
    pub fn new(params: &Value) -> Server {
        let root = params["rootUri"]
            .as_str()
            .and_then(uri_path)
            .or_else(|| params["rootPath"].as_str().map(PathBuf::from));
        Server {
            docs: HashMap::new(),
            root,
        }
    }

    /// The messages to send for `msg`: answers to requests, diagnostics after changes.
    pub fn handle(&mut self, msg: Message) -> Vec<Message> {
        match msg {
            Message::Request(req) => vec![self.request(&req).into()],
            Message::Notification(n) => self.notification(&n),
            Message::Response(_) => Vec::new(),
        }
    }

    fn notification(&mut self, n: &Notification) -> Vec<Message> {
        let doc = &n.params["textDocument"];
        let Some(uri) = doc["uri"].as_str() else {
            return Vec::new();
        };
        match n.method.as_str() {
            "textDocument/didOpen" => {
                let text = doc["text"].as_str().unwrap_or_default().to_string();
                self.docs.insert(uri.to_string(), text);
            }
            // Full synchronisation: the last change holds the whole text.
            "textDocument/didChange" => {
                let changes = n.params["contentChanges"].as_array();
                let Some(text) = changes
                    .and_then(|c| c.last())
                    .and_then(|c| c["text"].as_str())
                else {
                    return Vec::new();
                };
                self.docs.insert(uri.to_string(), text.to_string());
            }
            "textDocument/didClose" => {
                self.docs.remove(uri);
                return vec![publish(uri, Vec::new())];
            }
            _ => return Vec::new(),
        }
        vec![publish(uri, self.diagnostics(uri))]
    }

    fn request(&self, req: &Request) -> Response {
        let id = req.id.clone();
        const ANSWERED: &[&str] = &[
            "textDocument/hover",
            "textDocument/completion",
            "textDocument/definition",
            "textDocument/formatting",
        ];
        if !ANSWERED.contains(&req.method.as_str()) {
            return Response::new_err(
                id,
                lsp_server::ErrorCode::MethodNotFound as i32,
                format!("grimoire does not answer {}", req.method),
            );
        }
        let uri = req.params["textDocument"]["uri"]
            .as_str()
            .unwrap_or_default();
        let Some(text) = self.docs.get(uri).filter(|t| t.len() <= MAX_DOCUMENT_BYTES) else {
            return Response::new_ok(id, Value::Null);
        };
        let at = position_offset(text, &req.params["position"]);
        let result = match req.method.as_str() {
            "textDocument/hover" => self.hover(uri, text, at),
            "textDocument/completion" => self.completion(uri, text, at),
            "textDocument/definition" => self.definition(uri, text, at),
            _ => formatting(text),
        };
        Response::new_ok(id, result)
    }

    /// `check`'s diagnostics for the document, with the workspace's rule-set
    /// files beside it so its own rule sets are known: the first
    /// [`MAX_PER_FILE`] of them, as `check` shows, the last saying how many
    /// more there are.
    fn diagnostics(&self, uri: &str) -> Vec<Value> {
        let Some(text) = self.docs.get(uri) else {
            return Vec::new();
        };
        if text.len() > MAX_DOCUMENT_BYTES {
            return vec![json!({
                "range": range(text, 0, 0),
                "severity": 1,
                "code": Code::TooLarge.as_str(),
                "source": "grimoire",
                "message": format!(
                    "this document is {} MiB, over the {} MiB the editor checks as you type: run `grimoire check` on the file",
                    text.len() >> 20,
                    MAX_DOCUMENT_BYTES >> 20
                ),
            })];
        }
        let path = uri_path(uri).map_or(uri.to_string(), |p| p.display().to_string());
        let mut sources = vec![Source::new(path.clone(), text.clone())];
        for rules in self.workspace_rule_files() {
            if rules.display().to_string() != path
                && let Ok(t) = files::read_file_text(&rules)
            {
                sources.push(Source::new(rules.display().to_string(), t));
            }
        }
        let checked = files::check_sources_in(&self.library(uri), sources, None);
        let source = &checked.sources[0];
        // One line index for every range: a position found from the start of
        // the text each time made 200,000 errors take minutes.
        let lines = Lines::new(&source.text);
        let range = |start: u32, end: u32| lines.range(start, end);
        let own: Vec<_> = checked
            .diagnostics
            .iter()
            .filter(|(i, _)| *i == 0)
            .collect();
        let hidden = own.len().saturating_sub(MAX_PER_FILE);
        own.iter()
            .take(MAX_PER_FILE)
            .enumerate()
            .map(|(n, (_, d))| {
                let mut message = d.message.clone();
                if let Some(help) = &d.help {
                    message.push_str(&format!("\nhelp: {help}"));
                }
                if hidden > 0 && n + 1 == MAX_PER_FILE {
                    message.push_str(&format!(
                        "\n({hidden} more diagnostics in this document are not shown)"
                    ));
                }
                let related: Vec<Value> = d
                    .related
                    .iter()
                    .map(|(span, note)| {
                        json!({
                            "location": {"uri": uri, "range": range(span.start, span.end)},
                            "message": note,
                        })
                    })
                    .collect();
                json!({
                    "range": range(d.span.start, d.span.end),
                    "severity": if d.severity == Severity::Error { 1 } else { 2 },
                    "code": d.code.as_str(),
                    "source": "grimoire",
                    "message": message,
                    "relatedInformation": related,
                })
            })
            .collect()
    }

    /// The rule sets the document can name: those of the project it is in
    /// (found from its folder up), else of the workspace's project, and the
    /// bundled ones.
    fn library(&self, uri: &str) -> files::Library {
        let found = uri_path(uri)
            .and_then(|p| p.parent().map(files::Library::of))
            .filter(|l| l.project.is_some());
        match (found, &self.root) {
            (Some(library), _) => library,
            (None, Some(root)) => files::Library::of(root),
            (None, None) => files::Library::default(),
        }
    }

    /// `rules/*.edn` under the workspace root.
    fn workspace_rule_files(&self) -> Vec<PathBuf> {
        let Some(root) = &self.root else {
            return Vec::new();
        };
        let mut out: Vec<PathBuf> = std::fs::read_dir(root.join("rules"))
            .map(|dir| {
                dir.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|e| e == "edn"))
                    .collect()
            })
            .unwrap_or_default();
        out.sort();
        out
    }

    /// The rule set the document is written against: itself if it is a rule
    /// set, else the one its `:rules` names, else its folder's.
    fn rules_for(&self, uri: &str, text: &str) -> Option<RuleSet> {
        if let Ok(rs) = RuleSet::parse(text) {
            return Some(rs);
        }
        let arena = crate::syntax::Arena::new();
        let read = crate::syntax::read(&arena, text);
        let path = uri_path(uri).unwrap_or_default();
        let named = read.forms.iter().find_map(|f| {
            f.get("rules")
                .and_then(|v| v.as_keyword())
                .map(str::to_string)
        });
        let workspace = |name: &str| {
            self.root
                .as_ref()
                .map(|r| r.join("rules").join(format!("{name}.edn")))
                .filter(|p| p.is_file())
        };
        let library = self.library(uri);
        let known = library.rule_set_names();
        let name = named.or_else(|| {
            files::rules_folder(&path, |dir| {
                known.iter().any(|n| n == dir) || workspace(dir).is_some()
            })
            .map(str::to_string)
        })?;
        // The project's own first, then the workspace's file, then a bundled one.
        let project = matches!(library.tree_of(&name), Some(files::Tree::Folder(_)));
        match workspace(&name).filter(|_| !project) {
            Some(p) => library.open(&p.display().to_string()).ok(),
            None => library.open(&name).ok(),
        }
        .map(|o| o.rules)
    }

    /// The card and status definitions of `rules`: its project's (else the
    /// workspace's) `cards/NAME` and `effects/NAME` folders, with where each
    /// is written.
    fn definitions(&self, uri: &str, rules: &RuleSet) -> files::Checked {
        let folders: Vec<PathBuf> = match self.library(uri).tree_of(&rules.name) {
            // Only the folders: check_paths reads their files.
            Some(tree @ files::Tree::Folder(_)) => tree.definition_folders(&rules.name),
            _ => {
                let Some(root) = &self.root else {
                    return files::Checked::default();
                };
                files::Tree::Folder(root.clone()).definition_folders(&rules.name)
            }
        };
        if folders.is_empty() {
            return files::Checked::default();
        }
        files::check_paths(&folders, Some(rules))
    }

    /// The card names of the document's deck: the workspace's, else the bundled one.
    fn card_names(&self, uri: &str, rules: &RuleSet) -> Vec<(String, String)> {
        let checked = self.definitions(uri, rules);
        let mut cards: Vec<(String, String)> = checked
            .definitions
            .iter()
            .filter(|d| d.kind == DefKind::Card)
            .map(|d| (d.name.clone(), d.text.clone().unwrap_or_default()))
            .collect();
        let home = self.library(uri).tree_of(&rules.name);
        if cards.is_empty()
            && let Ok(deck) = files::load_deck_in(&mut rules.clone(), home.as_ref(), &[], &[])
        {
            cards = deck
                .cards
                .iter()
                .map(|c| (c.name.clone(), c.text.clone()))
                .collect();
        }
        cards
    }

    fn hover(&self, uri: &str, text: &str, at: usize) -> Value {
        let Some(token) = token_at(text, at) else {
            return Value::Null;
        };
        let rules = self.rules_for(uri, text);
        let shown = match &token.word {
            Word::Symbol(s) => OPERATORS
                .iter()
                .find(|op| op.name == s)
                .map(|op| format!("`{}`\n\n{}", op.forms, op.doc)),
            Word::Keyword(k) => rules
                .as_ref()
                .and_then(|r| describe_keyword(r, k))
                .or_else(|| super::lsp_keys::describe(text, token.start, k)),
            Word::Str(s) => rules.as_ref().and_then(|r| {
                self.card_names(uri, r)
                    .into_iter()
                    .find(|(name, _)| name == s)
                    .map(|(name, card)| format!("card **{name}**: {card}"))
            }),
        };
        match shown {
            Some(value) => json!({
                "contents": {"kind": "markdown", "value": value},
                "range": range(text, token.start as u32, token.end as u32),
            }),
            None => Value::Null,
        }
    }

    fn completion(&self, uri: &str, text: &str, at: usize) -> Value {
        let (start, partial) = partial_at(text, at);
        let Some(rules) = self.rules_for(uri, text) else {
            return json!([]);
        };
        let before = previous_token(text, start);
        let keywords = |names: Vec<(&str, String)>, kind: u32| -> Vec<Value> {
            names
                .into_iter()
                .map(|(name, doc)| item(text, start, at, format!(":{name}"), doc, kind))
                .collect()
        };
        let items: Vec<Value> = if partial.starts_with('"') {
            // An editor that closed the quote already: the edit takes it in.
            let end = if text[at..].starts_with('"') {
                at + 1
            } else {
                at
            };
            self.card_names(uri, &rules)
                .into_iter()
                .map(|(name, card)| item(text, start, end, format!("\"{name}\""), card, 12))
                .collect()
        } else if text[..start].ends_with('[') {
            OPERATORS
                .iter()
                .map(|op| item(text, start, at, op.name.to_string(), op.doc.to_string(), 3))
                .collect()
        } else {
            match before {
                ":effected" => keywords(
                    rules
                        .roles
                        .iter()
                        .zip(&rules.role_docs)
                        .map(|(r, d)| (r.as_str(), d.clone()))
                        .collect(),
                    6,
                ),
                ":resource" => {
                    let mut names: Vec<(&str, String)> = rules
                        .attributes
                        .iter()
                        .zip(&rules.attribute_defs)
                        .map(|(a, d)| (a.as_str(), d.doc.clone()))
                        .collect();
                    names.extend(
                        rules
                            .operations
                            .iter()
                            .zip(&rules.operation_defs)
                            .map(|(o, d)| (o.as_str(), d.doc.clone())),
                    );
                    keywords(names, 10)
                }
                // A trigger's event, whatever the rule set.
                ":on" => keywords(
                    crate::check::triggers::On::ALL
                        .iter()
                        .map(|&(on, name)| (name, on.doc().to_string()))
                        .collect(),
                    20,
                ),
                ":acquire" | ":dispel" | ":extend" | ":status" => keywords(
                    rules
                        .statuses
                        .iter()
                        .map(|s| (s.as_str(), String::new()))
                        .collect(),
                    20,
                ),
                // A key of the map the cursor is in, where one is due.
                _ => match super::lsp_keys::context(text, start) {
                    Some((set, true)) => keywords(
                        set.keys
                            .iter()
                            .map(|&(k, doc)| (k, doc.to_string()))
                            .collect(),
                        10,
                    ),
                    _ => Vec::new(),
                },
            }
        };
        let items: Vec<Value> = items
            .into_iter()
            .filter(|i| i["label"].as_str().is_some_and(|l| l.starts_with(partial)))
            .collect();
        Value::Array(items)
    }

    fn definition(&self, uri: &str, text: &str, at: usize) -> Value {
        let Some(token) = token_at(text, at) else {
            return Value::Null;
        };
        let Some(rules) = self.rules_for(uri, text) else {
            return Value::Null;
        };
        let (kind, name) = match &token.word {
            Word::Str(s) => (DefKind::Card, s.as_str()),
            Word::Keyword(k) if rules.statuses.iter().any(|s| s == k) => {
                (DefKind::Status, k.as_str())
            }
            _ => return Value::Null,
        };
        let checked = self.definitions(uri, &rules);
        let Some(def) = checked
            .definitions
            .iter()
            .find(|d| d.kind == kind && d.name == name)
        else {
            return Value::Null;
        };
        let source = &checked.sources[def.source];
        let path = Path::new(&source.path);
        let abs = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        json!({
            "uri": path_uri(&abs),
            "range": range(&source.text, def.span.start, def.span.end),
        })
    }
}

/// What hovering over keyword `k` shows, from the rule set's declarations.
fn describe_keyword(rules: &RuleSet, k: &str) -> Option<String> {
    if let Some(i) = rules.roles.iter().position(|r| r == k) {
        return Some(format!(
            "role `:{k}`: {}",
            rules.role_docs.get(RoleId::new(i))?
        ));
    }
    if let Some(i) = rules.attributes.iter().position(|a| a == k) {
        let d = rules.attribute_defs.get(AttrId::new(i))?;
        let bound = |n: i64| {
            if n == i64::MIN || n == i64::MAX {
                "none".to_string()
            } else {
                n.to_string()
            }
        };
        return Some(format!(
            "attribute `:{k}`: {}\n\ndefault {}, min {}, max {}",
            d.doc,
            d.default,
            bound(d.min),
            bound(d.max)
        ));
    }
    if let Some((_, v)) = rules.params.iter().find(|(p, _)| p == k) {
        return Some(format!("param `:{k}` = {v}"));
    }
    if let Some(i) = rules.operations.iter().position(|o| o == k) {
        return Some(format!(
            "operation `:{k}`: {}",
            rules.operation_defs.get(OpId::new(i))?.doc
        ));
    }
    if let Some(t) = rules.timings.iter().find(|t| t.name == k) {
        use crate::check::keys::Keys;
        return Some(format!("timing `:{k}` (at `:{}`): {}", t.at.name(), t.doc));
    }
    if let Some(keyword) = rules.keywords.iter().find(|w| w.name == k) {
        return Some(format!("keyword `:{k}`: {}", keyword.doc));
    }
    if rules.statuses.iter().any(|s| s == k) {
        return Some(format!("status `:{k}`"));
    }
    if rules.kinds.iter().any(|s| s == k) {
        return Some(format!("kind `:{k}`"));
    }
    if let Some(a) = rules.actions.iter().find(|a| a.name == k) {
        return Some(format!("action `:{k}`: {}", a.doc));
    }
    None
}

/// A completion item replacing the text from `start` to `at` with `label`.
fn item(text: &str, start: usize, at: usize, label: String, doc: String, kind: u32) -> Value {
    json!({
        "label": label,
        "kind": kind,
        "detail": doc,
        "textEdit": {"range": range(text, start as u32, at as u32), "newText": label},
    })
}

/// A `textDocument/publishDiagnostics` notification.
fn publish(uri: &str, diagnostics: Vec<Value>) -> Message {
    Notification::new(
        "textDocument/publishDiagnostics".to_string(),
        json!({"uri": uri, "diagnostics": diagnostics}),
    )
    .into()
}

/// The whole text formatted, as one edit; nothing for text that does not read.
fn formatting(text: &str) -> Value {
    match crate::formatter::format_source(text) {
        Ok(formatted) if formatted != text => json!([{
            "range": range(text, 0, text.len() as u32),
            "newText": formatted,
        }]),
        Ok(_) => json!([]),
        Err(_) => Value::Null,
    }
}

/// What the cursor is on.
enum Word {
    /// An operator or other symbol: `random`.
    Symbol(String),
    /// A keyword, without its colon: `wall`.
    Keyword(String),
    /// A string's text: a card name.
    Str(String),
}

struct Token {
    word: Word,
    start: usize,
    end: usize,
}

fn is_token_byte(b: u8) -> bool {
    !b.is_ascii_whitespace()
        && !matches!(
            b,
            b'[' | b']' | b'{' | b'}' | b'(' | b')' | b'"' | b',' | b';'
        )
}

/// The token at byte `at`: a string on one line, or a run of symbol characters.
fn token_at(text: &str, at: usize) -> Option<Token> {
    let bytes = text.as_bytes();
    let at = at.min(text.len());
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    // Inside a string when an odd number of unescaped quotes precede on the line.
    let quotes: Vec<usize> = (line_start..line_end)
        .filter(|&i| bytes[i] == b'"' && (i == 0 || bytes[i - 1] != b'\\'))
        .collect();
    if let Some(pair) = quotes
        .chunks(2)
        .find(|p| p.len() == 2 && p[0] <= at && at <= p[1])
    {
        return Some(Token {
            word: Word::Str(text[pair[0] + 1..pair[1]].to_string()),
            start: pair[0],
            end: pair[1] + 1,
        });
    }
    let mut start = at;
    while start > 0 && is_token_byte(bytes[start - 1]) {
        start -= 1;
    }
    let mut end = at;
    while end < bytes.len() && is_token_byte(bytes[end]) {
        end += 1;
    }
    if start == end {
        return None;
    }
    let s = &text[start..end];
    let word = match s.strip_prefix(':') {
        Some(k) => Word::Keyword(k.to_string()),
        None => Word::Symbol(s.to_string()),
    };
    Some(Token { word, start, end })
}

/// The partial token being typed before byte `at`, and where it starts; a
/// string's opening quote counts as part of it.
fn partial_at(text: &str, at: usize) -> (usize, &str) {
    let bytes = text.as_bytes();
    let at = at.min(text.len());
    let mut start = at;
    while start > 0 && is_token_byte(bytes[start - 1]) {
        start -= 1;
    }
    // A card name being typed: from its opening quote, spaces included.
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let quotes = text[line_start..at].matches('"').count();
    if quotes % 2 == 1
        && let Some(q) = text[line_start..at].rfind('"')
    {
        start = line_start + q;
    }
    (start, &text[start..at])
}

/// The token before byte `start`, skipping whitespace: `:resource` in
/// `:resource :wa`.
fn previous_token(text: &str, start: usize) -> &str {
    let trimmed = text[..start].trim_end();
    let from = trimmed
        .rfind(|c: char| c.is_whitespace() || "[]{}(),".contains(c))
        .map_or(0, |i| i + 1);
    &trimmed[from..]
}

/// The byte offset of an LSP position (line, UTF-16 character), clamped to the text.
fn position_offset(text: &str, position: &Value) -> usize {
    let line = position["line"].as_u64().unwrap_or(0) as usize;
    let character = position["character"].as_u64().unwrap_or(0) as usize;
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i == line {
            let mut units = 0;
            for (b, c) in l.char_indices() {
                if units >= character || c == '\n' {
                    return offset + b;
                }
                units += c.len_utf16();
            }
            return offset + l.len();
        }
        offset += l.len();
    }
    text.len()
}

/// The LSP position (line, UTF-16 character) of byte `offset`.
fn position(text: &str, offset: usize) -> Value {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let character: usize = before[line_start..].chars().map(char::len_utf16).sum();
    json!({"line": line, "character": character})
}

fn range(text: &str, start: u32, end: u32) -> Value {
    json!({"start": position(text, start as usize), "end": position(text, end as usize)})
}

/// A text's LSP positions found through its line index, each in the time
/// of its own line: for the many ranges of one text.
struct Lines<'t> {
    text: &'t str,
    index: LineIndex,
}

impl<'t> Lines<'t> {
    fn new(text: &'t str) -> Lines<'t> {
        Lines {
            text,
            index: LineIndex::new(text),
        }
    }

    /// The LSP position (line, UTF-16 character) of byte `offset`.
    fn position(&self, offset: u32) -> Value {
        let line = self.index.location(self.text, offset).line;
        let start = self.index.line_start(line).unwrap_or(0) as usize;
        let mut end = (offset as usize).clamp(start, self.text.len());
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let character: usize = self.text[start..end].chars().map(char::len_utf16).sum();
        json!({"line": line - 1, "character": character})
    }

    fn range(&self, start: u32, end: u32) -> Value {
        json!({"start": self.position(start), "end": self.position(end)})
    }
}

/// The path of a `file://` URI, percent-decoded.
fn uri_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(h) = rest.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(h, 16)
        {
            out.push(b);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok().map(PathBuf::from)
}

/// The `file://` URI of an absolute path, with what a URI cannot hold escaped.
fn path_uri(path: &Path) -> String {
    let mut out = String::from("file://");
    for b in path.display().to_string().bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_and_round_trip() {
        let text = "ab\n\u{1F600}x\n";
        // The emoji is two UTF-16 units and four bytes.
        assert_eq!(position(text, 7), json!({"line": 1, "character": 2}));
        assert_eq!(
            position_offset(text, &json!({"line": 1, "character": 2})),
            7
        );
        assert_eq!(
            position_offset(text, &json!({"line": 9, "character": 0})),
            text.len()
        );
    }

    #[test]
    fn positions_by_the_line_index_are_those_from_the_start() {
        let text = "ab\n\u{1F600}x\r\n\n\u{e9}z";
        let lines = Lines::new(text);
        for offset in 0..=text.len() + 2 {
            if text.is_char_boundary(offset.min(text.len())) {
                assert_eq!(
                    lines.position(offset as u32),
                    position(text, offset),
                    "{offset}"
                );
            }
        }
    }

    #[test]
    fn tokens_are_keywords_symbols_and_strings() {
        let text = "[random 1 :wall] \"Foundations\"";
        assert!(
            matches!(token_at(text, 3).map(|t| t.word), Some(Word::Symbol(s)) if s == "random")
        );
        assert!(
            matches!(token_at(text, 12).map(|t| t.word), Some(Word::Keyword(k)) if k == "wall")
        );
        assert!(
            matches!(token_at(text, 22).map(|t| t.word), Some(Word::Str(s)) if s == "Foundations")
        );
        assert_eq!(previous_token("{:resource :wa", 11), ":resource");
        assert_eq!(partial_at("[\"Found", 7), (1, "\"Found"));
    }

    fn open(server: &mut Server, uri: &str, text: &str) {
        let n = Notification::new(
            "textDocument/didOpen".into(),
            json!({"textDocument": {"uri": uri, "text": text}}),
        );
        server.handle(n.into());
    }

    fn ask(server: &mut Server, method: &str, params: Value) -> Value {
        let req = Request::new(lsp_server::RequestId::from(1), method.into(), params);
        match server.handle(req.into()).pop() {
            Some(Message::Response(r)) => match r.response_result {
                Ok(v) => v,
                Err(e) => json!({"error": e.code}),
            },
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_card_name_completed_inside_closed_quotes_replaces_the_closing_one() {
        let mut server = Server::default();
        let uri = "file:///srv/scenarios/arcomage/s.edn";
        open(&mut server, uri, "{:scenario \"x\" :play [\"Foun\"]}");
        let items = ask(
            &mut server,
            "textDocument/completion",
            json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 27}}),
        );
        let edit = items
            .as_array()
            .and_then(|i| i.iter().find(|i| i["label"] == "\"Foundations\""))
            .map(|i| i["textEdit"].clone())
            .expect("Foundations offered");
        assert_eq!(edit["range"]["start"]["character"], 22, "{edit}");
        assert_eq!(edit["range"]["end"]["character"], 28, "{edit}");
    }

    #[test]
    fn an_unknown_method_is_method_not_found_whatever_its_document() {
        let mut server = Server::default();
        let got = ask(&mut server, "workspace/symbol", json!({"query": "x"}));
        assert_eq!(got["error"], lsp_server::ErrorCode::MethodNotFound as i32);
        // Positions past the end and an unopened document answer null, never panic.
        let got = ask(
            &mut server,
            "textDocument/hover",
            json!({"textDocument": {"uri": "file:///nowhere.edn"}, "position": {"line": 99, "character": 99}}),
        );
        assert!(got.is_null());
    }

    #[test]
    fn uris_and_paths_round_trip() {
        let p = Path::new("/srv/a b/c.edn");
        assert_eq!(path_uri(p), "file:///srv/a%20b/c.edn");
        assert_eq!(uri_path(&path_uri(p)), Some(p.to_path_buf()));
    }
}
