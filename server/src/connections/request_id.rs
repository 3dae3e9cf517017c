//! The request id a client sent, kept: an incoming `x-request-id` that
//! [`acceptable`] allows replaces, in the answer, the id the HTTP server
//! behind made up for the request (dropshot always makes its own, and logs
//! the client's beside it, where the log drain puts it in its place).
//!
//! Answers come back in the order of the requests, each with one
//! `x-request-id` header written by the server behind (lower-case, as hyper
//! writes every header name), so the front rewrites the n-th such header
//! with the n-th request's id. Only a header line holds the pattern: the
//! bodies the service answers (compact JSON, SVG, HTML) have no line
//! beginning `x-request-id: `.

use std::borrow::Cow;
use std::collections::VecDeque;

/// The header's name as the server behind writes it, at the start of a line.
const PATTERN: &[u8] = b"x-request-id: ";
/// [`PATTERN`] with the LF ending the line before it.
const LINE: &[u8] = b"\nx-request-id: ";
/// The longest header value held back while the rest of it arrives.
const LONGEST_VALUE: usize = 128;

/// Whether a client's request id is kept: at most 128 characters of
/// `[A-Za-z0-9._-]`; any other is replaced by the server's own.
pub fn acceptable(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= LONGEST_VALUE
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// Rewrites the answers of one connection.
#[derive(Debug, Default)]
pub(super) struct Rewriter {
    /// The ids of the requests not answered yet, in order (`None`: the
    /// server's own id stays).
    ids: VecDeque<Option<String>>,
    /// The end of what was read, held back because a header line may
    /// continue in the next read.
    held: Vec<u8>,
    /// Whether the last byte sent ended a line.
    at_line_start: bool,
}

impl Rewriter {
    /// A request was forwarded with `id`.
    pub fn requested(&mut self, id: Option<String>) {
        self.ids.push_back(id);
    }

    /// The bytes to send the client for `data`, the next bytes of answers.
    pub fn rewrite<'a>(&mut self, data: &'a [u8]) -> Cow<'a, [u8]> {
        if data.is_empty() {
            return Cow::Borrowed(data);
        }
        // Most clients send no id: the headers passing by are only counted,
        // and the answer is sent as read.
        let nothing_to_replace = self.ids.iter().all(Option::is_none);
        let plain = self.held.is_empty()
            && self.partial(data, 0).is_none()
            && (nothing_to_replace || self.header_at(data, 0).is_none());
        let out = if plain {
            let mut search = 0;
            while let Some(at) = self.header_at(data, search) {
                self.ids.pop_front();
                search = at + PATTERN.len();
            }
            Cow::Borrowed(data)
        } else {
            let mut input = std::mem::take(&mut self.held);
            input.extend_from_slice(data);
            Cow::Owned(self.rewrite_owned(input))
        };
        if let Some(last) = out.last() {
            self.at_line_start = *last == b'\n';
        }
        out
    }

    fn rewrite_owned(&mut self, mut input: Vec<u8>) -> Vec<u8> {
        let mut out = Vec::with_capacity(input.len() + 64);
        let (mut copied, mut search) = (0, 0);
        let hold = loop {
            let Some(at) = self.header_at(&input, search) else {
                break self.partial(&input, search).unwrap_or(input.len());
            };
            let value = at + PATTERN.len();
            match input[value..].iter().position(|b| *b == b'\r') {
                Some(len) => {
                    if let Some(Some(id)) = self.ids.pop_front() {
                        out.extend_from_slice(&input[copied..value]);
                        out.extend_from_slice(id.as_bytes());
                        copied = value + len;
                    }
                    search = value + len;
                }
                // The value continues in the next read.
                None if input.len() - value <= LONGEST_VALUE => break at,
                None => search = value,
            }
        };
        out.extend_from_slice(&input[copied..hold]);
        self.held = input.split_off(hold);
        out
    }

    /// Whether `input[at..]` begins a line (the byte before it, or the
    /// last byte sent, is a LF).
    fn line_starts(&self, input: &[u8], at: usize) -> bool {
        match at.checked_sub(1) {
            Some(before) => input[before] == b'\n',
            None => self.at_line_start,
        }
    }

    /// Where the first `x-request-id: ` line from `from` starts.
    fn header_at(&self, input: &[u8], from: usize) -> Option<usize> {
        if from == 0 && self.at_line_start && input.starts_with(PATTERN) {
            return Some(0);
        }
        // With the LF before it (the byte before `from`, when there is
        // one): one vectorised search of the rest of the read.
        let start = from.saturating_sub(1);
        memchr::memmem::find(&input[start..], LINE).map(|found| start + found + 1)
    }

    /// Where `input` (from `from`) ends with the start of a line that may be
    /// an `x-request-id: ` line.
    fn partial(&self, input: &[u8], from: usize) -> Option<usize> {
        (1..PATTERN.len())
            .rev()
            .filter(|k| input.len() - from >= *k)
            .map(|k| input.len() - k)
            .find(|at| input[*at..] == PATTERN[..input.len() - at] && self.line_starts(input, *at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const UUID: &str = "0f8fad5b-d9cb-469f-a165-70867728950e";

    fn answer(id: &str, body: &str) -> String {
        format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nx-request-id: {id}\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        )
    }

    /// Every split of `stream` into two reads gives `expected`.
    fn check_splits(ids: &[Option<&str>], stream: &str, expected: &str) {
        for split in 0..=stream.len() {
            let mut rewriter = Rewriter::default();
            for id in ids {
                rewriter.requested(id.map(str::to_string));
            }
            let mut out = rewriter.rewrite(&stream.as_bytes()[..split]).into_owned();
            out.extend_from_slice(&rewriter.rewrite(&stream.as_bytes()[split..]));
            assert_eq!(
                String::from_utf8(out).unwrap(),
                expected,
                "split at {split}"
            );
            assert!(rewriter.held.is_empty(), "split at {split}");
        }
    }

    #[test]
    fn the_clients_ids_replace_the_servers_in_order() {
        let stream = answer(UUID, "{\"a\":1}") + &answer(UUID, "{}") + &answer(UUID, "[]");
        let expected =
            answer("client-1", "{\"a\":1}") + &answer(UUID, "{}") + &answer("c.3_x", "[]");
        check_splits(&[Some("client-1"), None, Some("c.3_x")], &stream, &expected);
        // Answers to requests without an id are only counted, sent as read.
        let expected = answer(UUID, "{\"a\":1}") + &answer(UUID, "{}") + &answer("third", "[]");
        check_splits(&[None, None, Some("third")], &stream, &expected);
        let mut rewriter = Rewriter::default();
        rewriter.requested(None);
        let one = answer(UUID, "{}");
        assert!(matches!(rewriter.rewrite(one.as_bytes()), Cow::Borrowed(_)));
        assert!(rewriter.ids.is_empty());
    }

    #[test]
    fn answers_without_a_request_to_match_or_a_chunked_end_pass_unchanged() {
        let chunked = "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n";
        check_splits(&[], chunked, chunked);
        let stream = answer(UUID, "{}");
        check_splits(&[], &stream, &stream);
        // The end of an answer is never held back.
        let mut rewriter = Rewriter::default();
        assert_eq!(
            rewriter.rewrite(chunked.as_bytes()).as_ref(),
            chunked.as_bytes()
        );
    }

    #[test]
    fn only_plain_short_ids_are_acceptable() {
        assert!(acceptable("abc-DEF_1.2"));
        assert!(acceptable(&"a".repeat(128)));
        assert!(!acceptable(&"a".repeat(129)));
        assert!(!acceptable(""));
        assert!(!acceptable("a b"));
        assert!(!acceptable("a\r\nx-evil: 1"));
        assert!(!acceptable("ä"));
    }
}
