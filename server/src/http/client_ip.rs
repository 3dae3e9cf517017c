//! The client's address: the socket's peer, or — when the peer is a
//! configured trusted proxy — the last `X-Forwarded-For` hop that is not
//! itself a trusted proxy (hops further left are the client's own claims).

use std::net::IpAddr;

/// The client's IP for a request from `peer` with `headers`.
pub fn client_ip(peer: IpAddr, headers: &http::HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let hops: Vec<IpAddr> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|hop| hop.trim().parse::<IpAddr>())
        .collect::<Result<_, _>>()
        .unwrap_or_default();
    hops.into_iter()
        .rev()
        .find(|hop| !trusted.contains(hop))
        .unwrap_or(peer)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(values: &[&str]) -> http::HeaderMap {
        let mut map = http::HeaderMap::new();
        for v in values {
            map.append("x-forwarded-for", v.parse().unwrap());
        }
        map
    }

    #[test]
    fn only_a_trusted_proxy_names_the_client() {
        let proxy: IpAddr = "10.0.0.1".parse().unwrap();
        let inner: IpAddr = "10.0.0.2".parse().unwrap();
        let trusted = [proxy, inner];
        let client: IpAddr = "203.0.113.7".parse().unwrap();
        let spoofed = headers(&["1.2.3.4, 203.0.113.7"]);
        // From an untrusted peer the header is ignored.
        assert_eq!(client_ip(client, &spoofed, &trusted), client);
        // From a trusted proxy: the last hop it added.
        assert_eq!(client_ip(proxy, &spoofed, &trusted), client);
        // Through two trusted proxies: the hop before them.
        let chained = headers(&["1.2.3.4", "203.0.113.7, 10.0.0.2"]);
        assert_eq!(client_ip(proxy, &chained, &trusted), client);
        // No header, or a malformed one: the proxy itself.
        assert_eq!(client_ip(proxy, &headers(&[]), &trusted), proxy);
        assert_eq!(client_ip(proxy, &headers(&["nonsense"]), &trusted), proxy);
    }
}
