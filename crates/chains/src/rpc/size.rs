//! Batches kept under the size a node takes in one request.

use serde_json::Value;

/// The largest request body sent as one batch, about: anvil answers a
/// body over 2 MiB with "Invalid request" (geth refuses one over 5 MiB),
/// and a probing `eth_call` carries its contract's code three times in
/// its state overrides (about 180 kB), so a batch of a dozen passes it.
pub(super) const MAX_BODY_BYTES: usize = 3 << 19;

/// Where to cut `calls` so that each part's parameters stay within
/// `limit` bytes (a call larger than that alone goes on its own); empty
/// when the whole batch fits.
pub(super) fn cuts_by_size(calls: &[(String, Value)], limit: usize) -> Vec<usize> {
    let mut cuts = Vec::new();
    let mut part = 0;
    for (i, (method, params)) in calls.iter().enumerate() {
        let size = method.len() + json_len(params);
        if part > 0 && part + size > limit {
            cuts.push(i);
            part = 0;
        }
        part += size;
    }
    cuts
}

/// The length of `value` written as JSON, without writing it anywhere.
fn json_len(value: &Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    // Writing to a counter cannot fail.
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_batch_is_cut_where_its_parts_would_pass_the_limit() {
        let call = |bytes: usize| ("eth_call".to_string(), json!(["x".repeat(bytes)]));
        let small: Vec<_> = (0..10).map(|_| call(100)).collect();
        assert!(cuts_by_size(&small, 4 << 20).is_empty());
        // Each call is 1,000 bytes of text, 1,012 with its method and quotes.
        let big: Vec<_> = (0..10).map(|_| call(1_000)).collect();
        assert_eq!(cuts_by_size(&big, 3_100), vec![3, 6, 9]);
        // A call larger than the limit goes alone, never split.
        let huge = vec![call(10), call(5_000), call(10)];
        assert_eq!(cuts_by_size(&huge, 3_100), vec![1, 2]);
        assert_eq!(json_len(&json!({"a": [1, "b"]})), r#"{"a":[1,"b"]}"#.len());
    }
}
