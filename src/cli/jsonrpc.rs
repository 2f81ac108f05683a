//! The language server's transport: JSON-RPC messages framed by
//! `Content-Length` headers on a byte stream, read with limits. The client
//! is not trusted: a header line, a header block and a message each have a
//! size past which they are refused, so no length a client writes is ever
//! allocated; a message too large, not JSON or not a JSON-RPC message is
//! answered with a JSON-RPC error and the server reads on; only a stream
//! whose framing is lost (no `Content-Length`, a header past its limit)
//! stops it.

use std::io::{BufRead, Read, Write};

use lsp_server::Message;
use serde_json::{Value, json};

/// The largest message the server reads: 64 MiB, room for any document
/// `grimoire check` reads ([`crate::files::MAX_FILE_BYTES`]) as JSON text.
/// A larger one is skipped unread and answered with an error.
pub const MAX_MESSAGE_BYTES: u64 = 64 << 20;

/// The longest header line (`Content-Length: 123`, `Content-Type: …`).
const MAX_HEADER_LINE: u64 = 1024;

/// The most header lines before the blank line that ends them.
const MAX_HEADERS: usize = 32;

/// JSON-RPC's code for a message that is not JSON.
pub const PARSE_ERROR: i32 = -32700;

/// JSON-RPC's code for JSON that is not a request, a response or a
/// notification, and for a message refused for its size.
pub const INVALID_REQUEST: i32 = -32600;

/// One thing read from the client.
#[derive(Debug)]
pub enum Incoming {
    /// A message.
    Message(Message),
    /// A message refused: the error to answer it with.
    Refused {
        /// The request's id when it could be read, else `null`.
        id: Value,
        /// The JSON-RPC error code.
        code: i32,
        /// Why it was refused.
        message: String,
    },
    /// The end of the input: the client went away.
    End,
}

/// Reads the next message from `input`; an error is a stream whose framing
/// is lost, which the server cannot read on from.
pub fn read(input: &mut impl BufRead) -> Result<Incoming, String> {
    let Some(length) = read_headers(input)? else {
        return Ok(Incoming::End);
    };
    if length > MAX_MESSAGE_BYTES {
        // Read past it without keeping it, so the next message is found.
        let skipped = std::io::copy(&mut input.take(length), &mut std::io::sink())
            .map_err(|e| format!("reading a message: {e}"))?;
        if skipped < length {
            return Ok(Incoming::End);
        }
        return Ok(Incoming::Refused {
            id: Value::Null,
            code: INVALID_REQUEST,
            message: format!(
                "a message of {length} bytes is refused: grimoire's language server reads messages of at most {} MiB",
                MAX_MESSAGE_BYTES >> 20
            ),
        });
    }
    let mut body = Vec::new();
    input
        .take(length)
        .read_to_end(&mut body)
        .map_err(|e| format!("reading a message: {e}"))?;
    if (body.len() as u64) < length {
        return Ok(Incoming::End);
    }
    Ok(parse(&body))
}

/// A message's body as a message, or why it is refused.
fn parse(body: &[u8]) -> Incoming {
    let value: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => {
            return Incoming::Refused {
                id: Value::Null,
                code: PARSE_ERROR,
                message: format!("the message is not JSON: {e}"),
            };
        }
    };
    // The id, if a request's could be read, so the client can match the error.
    let id = match &value["id"] {
        id @ (Value::Number(_) | Value::String(_)) => id.clone(),
        _ => Value::Null,
    };
    match serde_json::from_value::<Message>(value) {
        Ok(message) => Incoming::Message(message),
        Err(e) => Incoming::Refused {
            id,
            code: INVALID_REQUEST,
            message: format!("not a JSON-RPC request, response or notification: {e}"),
        },
    }
}

/// The headers of the next message: its `Content-Length`, or `None` at the
/// end of the input before any header.
fn read_headers(input: &mut impl BufRead) -> Result<Option<u64>, String> {
    let mut length = None;
    for n in 0.. {
        if n == MAX_HEADERS {
            return Err(format!("more than {MAX_HEADERS} header lines"));
        }
        let mut line = Vec::new();
        input
            .take(MAX_HEADER_LINE)
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("reading a header: {e}"))?;
        if line.is_empty() && n == 0 {
            return Ok(None);
        }
        let Some(line) = line.strip_suffix(b"\r\n") else {
            return Err(if line.len() as u64 == MAX_HEADER_LINE {
                format!("a header line longer than {MAX_HEADER_LINE} bytes")
            } else {
                format!(
                    "a header line not ended by CRLF: {:?}",
                    String::from_utf8_lossy(&line)
                )
            });
        };
        if line.is_empty() {
            break;
        }
        let line = String::from_utf8_lossy(line);
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| format!("a header without a colon: {line:?}"))?;
        if name.trim().eq_ignore_ascii_case("Content-Length") {
            let n = value
                .trim()
                .parse::<u64>()
                .map_err(|e| format!("Content-Length {:?}: {e}", value.trim()))?;
            length = Some(n);
        }
    }
    length
        .map(Some)
        .ok_or_else(|| "a message without Content-Length".to_string())
}

/// Writes `message` framed; an error is a client gone.
pub fn write(output: &mut impl Write, message: Message) -> std::io::Result<()> {
    message.write(output)
}

/// Writes the JSON-RPC error answering a refused message.
pub fn write_error(
    output: &mut impl Write,
    id: Value,
    code: i32,
    message: &str,
) -> std::io::Result<()> {
    let text = json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
        .to_string();
    write!(output, "Content-Length: {}\r\n\r\n{text}", text.len())?;
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    #[test]
    fn an_oversized_message_is_skipped_unread_and_the_next_one_read() {
        let huge = MAX_MESSAGE_BYTES + 1;
        let next = frame(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#);
        // The huge body is never held: a reader of zeros stands for it.
        let head = format!("Content-Length: {huge}\r\n\r\n");
        let mut input = std::io::BufReader::new(
            head.as_bytes()
                .chain(std::io::repeat(b' ').take(huge))
                .chain(next.as_bytes()),
        );
        match read(&mut input) {
            Ok(Incoming::Refused { id, code, message }) => {
                assert_eq!((id, code), (Value::Null, INVALID_REQUEST));
                assert!(message.contains("at most 64 MiB"), "{message}");
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            read(&mut input),
            Ok(Incoming::Message(Message::Notification(n))) if n.method == "initialized"
        ));
        assert!(matches!(read(&mut input), Ok(Incoming::End)));
    }

    #[test]
    fn a_huge_length_with_a_short_body_is_the_end_not_an_allocation() {
        let mut input = "Content-Length: 999999999999\r\n\r\n{}".as_bytes();
        assert!(matches!(read(&mut input), Ok(Incoming::End)));
    }

    #[test]
    fn malformed_messages_are_answered_and_framing_errors_stop() {
        let mut input = format!("{}{}", frame("{not json"), frame(r#"{"id":7}"#));
        let mut bytes = input.as_bytes();
        assert!(matches!(
            read(&mut bytes),
            Ok(Incoming::Refused {
                code: PARSE_ERROR,
                ..
            })
        ));
        assert!(matches!(
            read(&mut bytes),
            Ok(Incoming::Refused { code: INVALID_REQUEST, id, .. }) if id == 7
        ));
        input = format!("X-Long: {}\r\n\r\n", "a".repeat(5000));
        let err = read(&mut input.as_bytes()).expect_err("a framing error");
        assert!(err.contains("longer than 1024 bytes"), "{err}");
        let err = read(&mut "Content-Type: x\r\n\r\n{}".as_bytes()).expect_err("no length");
        assert!(err.contains("without Content-Length"), "{err}");
        let endless = std::io::repeat(b'a');
        let err = read(&mut std::io::BufReader::new(endless)).expect_err("a framing error");
        assert!(err.contains("longer than 1024 bytes"), "{err}");
    }
}
