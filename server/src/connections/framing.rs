//! Where a client's HTTP/1.1 requests begin and end, read from the bytes
//! it sends, so the front can time each phase (headers, body, the idle
//! gap between requests) without parsing or rewriting anything it
//! forwards. Framing follows RFC 9112 §6: `Transfer-Encoding: chunked`
//! (the only coding hyper accepts), else `Content-Length`, else no body.
//! Anything the front cannot follow (HTTP/2, a malformed head, conflicting
//! lengths) turns the stream [`Phase::Opaque`]: it is still relayed, hyper
//! behind answers the error and closes, and only the idle limit applies.

/// Where the stream stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Between requests: nothing of the next one has arrived.
    Boundary,
    /// Inside a request's head.
    Head,
    /// Inside a request's body.
    Body,
    /// Not followed any more.
    Opaque,
}

/// The longest head followed (hyper's own limit is larger; a longer head
/// is left to it).
const MAX_HEAD: usize = 64 * 1024;
/// Headers parsed per request (hyper's limit is 100).
const MAX_HEADERS: usize = 128;

#[derive(Debug)]
enum State {
    Boundary,
    /// The head so far is in [`Framing::head`].
    Head,
    Length(u64),
    Chunked(Chunk),
    Opaque,
}

/// Where a chunked body stands.
#[derive(Debug, Clone, Copy)]
enum Chunk {
    /// Hex digits of a chunk size (`digits` read so far).
    Size {
        size: u64,
        digits: u8,
    },
    /// A chunk extension, up to its CR.
    Extension {
        size: u64,
    },
    /// The LF after a size line.
    SizeLf {
        size: u64,
    },
    /// Chunk data left.
    Data(u64),
    /// The CR, then the LF, after chunk data.
    DataCr,
    DataLf,
    /// The start of a trailer line (an empty line ends the body).
    TrailerStart,
    /// Inside a trailer line, up to its LF.
    TrailerLine,
    /// The LF of the final empty line.
    EndLf,
}

/// The framing of one client stream.
#[derive(Debug)]
pub struct Framing {
    state: State,
    /// The current head's bytes (one buffer for the connection's life).
    head: Vec<u8>,
    /// Requests whose last byte has arrived.
    completed: u64,
    /// The request id each head followed carried, if acceptable, until taken.
    request_ids: std::collections::VecDeque<Option<String>>,
}

impl Default for Framing {
    fn default() -> Self {
        Framing {
            state: State::Boundary,
            head: Vec::new(),
            completed: 0,
            request_ids: Default::default(),
        }
    }
}

impl Framing {
    /// The phase after the bytes fed so far.
    pub fn phase(&self) -> Phase {
        match self.state {
            State::Boundary => Phase::Boundary,
            State::Head => Phase::Head,
            State::Length(_) | State::Chunked(_) => Phase::Body,
            State::Opaque => Phase::Opaque,
        }
    }

    /// The request ids of the heads followed since the last call, in order
    /// (`None`: the head carried no acceptable id); nothing when no head
    /// ended.
    pub fn take_request_ids(&mut self) -> Option<impl Iterator<Item = Option<String>> + '_> {
        (!self.request_ids.is_empty()).then(|| self.request_ids.drain(..))
    }

    /// Requests complete so far.
    pub fn completed(&self) -> u64 {
        self.completed
    }

    /// Follow `data`, the next bytes from the client.
    pub fn feed(&mut self, mut data: &[u8]) {
        while !data.is_empty() {
            data = match &mut self.state {
                State::Opaque => return,
                State::Boundary => {
                    // Empty lines before a request line are allowed (RFC 9112 §2.2).
                    let start = data
                        .iter()
                        .position(|b| *b != b'\r' && *b != b'\n')
                        .unwrap_or(data.len());
                    if start < data.len() {
                        self.head.clear();
                        self.state = State::Head;
                    }
                    &data[start..]
                }
                State::Head => {
                    let head = &mut self.head;
                    let before = head.len();
                    let room = MAX_HEAD.saturating_sub(before);
                    let take = data.len().min(room);
                    head.extend_from_slice(&data[..take]);
                    let search_from = before.saturating_sub(3);
                    match find_head_end(&head[search_from..]) {
                        Some(end) => {
                            let end = search_from + end;
                            let used = end - before;
                            let (state, id) = head_complete(&head[..end]);
                            if !matches!(state, State::Opaque) {
                                self.request_ids.push_back(id);
                            }
                            self.state = state;
                            if matches!(self.state, State::Boundary) {
                                self.completed += 1;
                            }
                            &data[used..]
                        }
                        None if take < data.len() || head.len() >= MAX_HEAD => {
                            self.state = State::Opaque;
                            return;
                        }
                        None => &data[take..],
                    }
                }
                State::Length(left) => {
                    let take = (*left).min(data.len() as u64);
                    *left -= take;
                    if *left == 0 {
                        self.finish();
                    }
                    &data[take as usize..]
                }
                State::Chunked(chunk) => match step_chunk(chunk, data) {
                    Ok((used, done)) => {
                        if done {
                            self.finish();
                        }
                        &data[used..]
                    }
                    Err(()) => {
                        self.state = State::Opaque;
                        return;
                    }
                },
            };
        }
    }

    fn finish(&mut self) {
        self.state = State::Boundary;
        self.completed += 1;
    }
}

/// The index just past the empty line ending a head, if it is in `bytes`:
/// `\r\n\r\n`, or with bare LFs (`\n\n`, `\n\r\n`), which httparse and so
/// hyper accept too.
fn find_head_end(bytes: &[u8]) -> Option<usize> {
    bytes.iter().enumerate().find_map(|(i, b)| {
        if *b != b'\n' {
            return None;
        }
        match &bytes[i + 1..] {
            [b'\n', ..] => Some(i + 2),
            [b'\r', b'\n', ..] => Some(i + 3),
            _ => None,
        }
    })
}

/// What follows a complete head.
fn head_complete(head: &[u8]) -> (State, Option<String>) {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut headers);
    match request.parse(head) {
        Ok(httparse::Status::Complete(_)) => {}
        _ => return (State::Opaque, None),
    }
    let id = request
        .headers
        .iter()
        .find(|h| h.name.eq_ignore_ascii_case("x-request-id"))
        .and_then(|h| std::str::from_utf8(h.value).ok())
        .map(str::trim)
        .filter(|id| super::request_id::acceptable(id))
        .map(str::to_string);
    (framing_of(request.headers), id)
}

/// How the body of a request with `headers` is framed.
fn framing_of(headers: &[httparse::Header<'_>]) -> State {
    let mut length: Option<u64> = None;
    let mut chunked = false;
    for header in headers {
        if header.name.eq_ignore_ascii_case("transfer-encoding") {
            let Ok(value) = std::str::from_utf8(header.value) else {
                return State::Opaque;
            };
            // Only a final `chunked` frames the body (RFC 9112 §6.3).
            chunked = value
                .rsplit(',')
                .next()
                .is_some_and(|last| last.trim().eq_ignore_ascii_case("chunked"));
            if !chunked {
                return State::Opaque;
            }
        } else if header.name.eq_ignore_ascii_case("content-length") {
            let Some(value) = std::str::from_utf8(header.value)
                .ok()
                .and_then(|v| v.trim().parse::<u64>().ok())
            else {
                return State::Opaque;
            };
            if length.is_some_and(|l| l != value) {
                return State::Opaque;
            }
            length = Some(value);
        }
    }
    match (chunked, length) {
        // Both framings at once is how requests are smuggled; hyper refuses it.
        (true, Some(_)) => State::Opaque,
        (true, None) => State::Chunked(Chunk::Size { size: 0, digits: 0 }),
        (false, Some(n)) if n > 0 => State::Length(n),
        (false, _) => State::Boundary,
    }
}

/// Follow a chunked body through `data`: the bytes used, and whether the
/// body ended; `Err` when the bytes are not chunked framing.
fn step_chunk(chunk: &mut Chunk, data: &[u8]) -> Result<(usize, bool), ()> {
    let mut i = 0;
    while i < data.len() {
        let byte = data[i];
        *chunk = match *chunk {
            Chunk::Size { size, digits } => match (byte as char).to_digit(16) {
                Some(d) if digits < 15 => Chunk::Size {
                    size: size * 16 + u64::from(d),
                    digits: digits + 1,
                },
                None if digits > 0 && byte == b'\r' => Chunk::SizeLf { size },
                None if digits > 0 && (byte == b';' || byte == b' ' || byte == b'\t') => {
                    Chunk::Extension { size }
                }
                _ => return Err(()),
            },
            Chunk::Extension { size } if byte == b'\r' => Chunk::SizeLf { size },
            Chunk::Extension { .. } if byte == b'\n' => return Err(()),
            Chunk::Extension { size } => Chunk::Extension { size },
            Chunk::SizeLf { size: 0 } if byte == b'\n' => Chunk::TrailerStart,
            Chunk::SizeLf { size } if byte == b'\n' => Chunk::Data(size),
            Chunk::SizeLf { .. } => return Err(()),
            Chunk::Data(left) => {
                let take = left.min((data.len() - i) as u64);
                i += take as usize;
                *chunk = if take == left {
                    Chunk::DataCr
                } else {
                    Chunk::Data(left - take)
                };
                continue;
            }
            Chunk::DataCr if byte == b'\r' => Chunk::DataLf,
            Chunk::DataLf if byte == b'\n' => Chunk::Size { size: 0, digits: 0 },
            Chunk::DataCr | Chunk::DataLf => return Err(()),
            Chunk::TrailerStart if byte == b'\r' => Chunk::EndLf,
            Chunk::TrailerStart if byte == b'\n' => return Err(()),
            Chunk::TrailerLine if byte == b'\n' => Chunk::TrailerStart,
            Chunk::TrailerStart | Chunk::TrailerLine => Chunk::TrailerLine,
            Chunk::EndLf if byte == b'\n' => return Ok((i + 1, true)),
            Chunk::EndLf => return Err(()),
        };
        i += 1;
    }
    Ok((i, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feed `parts` one after another; the phase after each.
    fn phases(parts: &[&[u8]]) -> (Vec<Phase>, u64) {
        let mut framing = Framing::default();
        let phases = parts
            .iter()
            .map(|part| {
                framing.feed(part);
                framing.phase()
            })
            .collect();
        (phases, framing.completed())
    }

    #[test]
    fn heads_and_lengths_are_followed_byte_by_byte() {
        let request = b"POST /v1/x HTTP/1.1\r\nhost: a\r\ncontent-length: 5\r\n\r\nhello";
        let mut framing = Framing::default();
        let mut seen = Vec::new();
        for byte in request.iter() {
            framing.feed(std::slice::from_ref(byte));
            seen.push(framing.phase());
        }
        let head_len = request.len() - 5;
        assert!(seen[..head_len - 1].iter().all(|p| *p == Phase::Head));
        assert!(seen[head_len - 1..request.len() - 1]
            .iter()
            .all(|p| *p == Phase::Body));
        assert_eq!(framing.phase(), Phase::Boundary);
        assert_eq!(framing.completed(), 1);
    }

    #[test]
    fn pipelined_requests_without_bodies_complete_together() {
        let two = b"GET /a HTTP/1.1\r\nhost: a\r\n\r\nGET /b HTTP/1.1\r\nhost: a\r\n\r\nGET /c";
        let (phases, completed) = phases(&[two]);
        assert_eq!(phases, vec![Phase::Head]);
        assert_eq!(completed, 2);
    }

    #[test]
    fn a_short_body_stays_in_the_body() {
        let (phases, completed) = phases(&[
            b"POST /a HTTP/1.1\r\ncontent-length: 100\r\n\r\n",
            b"0123456789",
        ]);
        assert_eq!(phases, vec![Phase::Body, Phase::Body]);
        assert_eq!(completed, 0);
    }

    #[test]
    fn chunked_bodies_end_at_the_last_chunk_and_trailers() {
        let (seen, completed) = phases(&[
            b"POST /a HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n",
            b"5;ext=1\r\nhel",
            b"lo\r\n0\r\n",
            b"x-trailer: 1\r\n",
            b"\r\n",
        ]);
        assert_eq!(
            seen,
            vec![
                Phase::Body,
                Phase::Body,
                Phase::Body,
                Phase::Body,
                Phase::Boundary
            ]
        );
        assert_eq!(completed, 1);
        let (unending, _) = phases_of_unending_chunks();
        assert!(unending.iter().all(|p| *p == Phase::Body));
    }

    fn phases_of_unending_chunks() -> (Vec<Phase>, u64) {
        phases(&[
            b"POST /a HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n",
            b"1\r\na\r\n",
            b"1\r\nb\r\n",
        ])
    }

    #[test]
    fn what_cannot_be_followed_turns_opaque() {
        for head in [
            &b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"[..],
            b"POST /a HTTP/1.1\r\ncontent-length: 1\r\ncontent-length: 2\r\n\r\n",
            b"POST /a HTTP/1.1\r\ncontent-length: 1\r\ntransfer-encoding: chunked\r\n\r\n",
            b"POST /a HTTP/1.1\r\ntransfer-encoding: gzip\r\n\r\n",
            b"POST /a HTTP/1.1\r\ncontent-length: -1\r\n\r\n",
        ] {
            assert_eq!(phases(&[head]).0, vec![Phase::Opaque], "{head:?}");
        }
        let (bad_chunk, _) = phases(&[
            b"POST /a HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n",
            b"zz\r\n",
        ]);
        assert_eq!(bad_chunk, vec![Phase::Body, Phase::Opaque]);
        let huge = vec![b'a'; MAX_HEAD + 10];
        assert_eq!(phases(&[&b"GET /"[..], &huge[..]]).0[1], Phase::Opaque);
    }

    #[test]
    fn heads_ended_by_bare_line_feeds_end() {
        for request in [
            &b"GET / HTTP/1.1\nhost: a\n\n"[..],
            b"GET / HTTP/1.1\r\nhost: a\n\r\n",
            b"GET / HTTP/1.1\nhost: a\r\n\n",
        ] {
            let (seen, completed) = phases(&[request]);
            assert_eq!((seen, completed), (vec![Phase::Boundary], 1), "{request:?}");
        }
    }

    #[test]
    fn empty_lines_between_requests_are_skipped() {
        let (phases, completed) = phases(&[b"\r\n\r\n", b"GET / HTTP/1.1\r\n\r\n"]);
        assert_eq!(phases, vec![Phase::Boundary, Phase::Boundary]);
        assert_eq!(completed, 1);
    }
}
