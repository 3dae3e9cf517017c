//! Header values made once and shared: the few values an answer repeats
//! from request to request (a window's limit and reset, an analysis's
//! `ETag`, a `Cache-Control` age) are kept, each by what it is made from,
//! and cloned (a reference count) instead of written and allocated again.

use std::sync::Mutex;

use http::HeaderValue;

/// A header value written on the stack from its parts: one allocation,
/// the value's own (None if it would not fit or is not a valid value).
pub fn written(parts: std::fmt::Arguments<'_>) -> Option<HeaderValue> {
    use std::io::Write as _;
    let mut buffer = [0u8; 96];
    let mut cursor = std::io::Cursor::new(&mut buffer[..]);
    cursor.write_fmt(parts).ok()?;
    let end = cursor.position() as usize;
    HeaderValue::from_bytes(&buffer[..end]).ok()
}

/// The last `N` values made, by key; the oldest goes first.
pub struct HeaderCache<K, const N: usize> {
    kept: Mutex<Kept<K, N>>,
}

struct Kept<K, const N: usize> {
    values: [Option<(K, HeaderValue)>; N],
    next: usize,
}

impl<K: PartialEq + Clone, const N: usize> HeaderCache<K, N> {
    /// Nothing kept yet.
    pub const fn new() -> Self {
        HeaderCache {
            kept: Mutex::new(Kept {
                values: [const { None }; N],
                next: 0,
            }),
        }
    }

    /// The value kept for `key`, or the one `make` makes (kept for the next
    /// request; None is not kept).
    pub fn get_or(
        &self,
        key: &K,
        make: impl FnOnce() -> Option<HeaderValue>,
    ) -> Option<HeaderValue> {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, value)) = kept.values.iter().flatten().find(|(k, _)| k == key) {
            return Some(value.clone());
        }
        let value = make()?;
        let slot = kept.next;
        kept.values[slot] = Some((key.clone(), value.clone()));
        kept.next = (slot + 1) % N;
        Some(value)
    }
}

impl<K: PartialEq + Clone, const N: usize> Default for HeaderCache<K, N> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_made_once_per_key_and_the_oldest_go_first() {
        let cache: HeaderCache<u32, 2> = HeaderCache::new();
        let made = std::cell::Cell::new(0);
        let get = |n: u32| {
            cache
                .get_or(&n, || {
                    made.set(made.get() + 1);
                    HeaderValue::from_str(&n.to_string()).ok()
                })
                .unwrap()
        };
        assert_eq!(get(1), "1");
        assert_eq!(get(1), "1");
        assert_eq!(get(2), "2");
        assert_eq!(made.get(), 2);
        assert_eq!(get(3), "3");
        assert_eq!(get(1), "1", "1 was the oldest: made again");
        assert_eq!(made.get(), 4);
    }
}
