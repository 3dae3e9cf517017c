//! Where a webhook may be delivered: `https` to a public address. A target
//! that is, or resolves to, a loopback, private, link-local, shared
//! (CGNAT), unspecified, multicast, documentation, benchmarking or
//! reserved address, or an IPv6 address that embeds one (IPv4-mapped,
//! -compatible or -translated, 6to4, NAT64), is refused
//! unless the operator allows private targets (tests), and then plain
//! `http` is allowed too. The delivery connects to the addresses checked
//! here, never to a second lookup, so a name cannot be re-pointed between
//! the check and the connection (DNS rebinding).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use reqwest::Url;

/// The longest a target's name may take to resolve.
const LOOKUP_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// Why a target was refused.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// Not an absolute `http(s)` URL with a host.
    #[error("url: not an absolute https URL with a host")]
    NotAUrl,
    /// `http` (or another scheme) where `https` is required.
    #[error("url: must use https")]
    NotHttps,
    /// The host did not resolve.
    #[error("url: the host {0} does not resolve")]
    Unresolved(String),
    /// The host is, or resolves to, an address deliveries may not reach.
    #[error("url: {0} is a private, loopback or otherwise internal address")]
    Internal(IpAddr),
}

/// A checked target: the URL and the addresses to connect to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The URL as given.
    pub url: Url,
    /// The host's addresses, each allowed.
    pub addresses: Vec<SocketAddr>,
}

/// Whether `ip` is one deliveries may not reach.
pub fn is_internal(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => internal_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => internal_v4(v4),
            None => internal_v6(v6),
        },
    }
}

fn internal_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_multicast()
        || ip.is_broadcast()
        || ip.is_documentation()
        // Shared address space (RFC 6598), 0.0.0.0/8, 240.0.0.0/4,
        // benchmarking 198.18.0.0/15, IETF assignments 192.0.0.0/24, and
        // the 6to4 relay anycast 192.88.99.0/24.
        || (a == 100 && (64..128).contains(&b))
        || a == 0
        || a >= 240
        || (a == 198 && (b & 0xfe) == 18)
        || (a == 192 && b == 0 && c == 0)
        || (a == 192 && b == 88 && c == 99)
}

fn internal_v6(ip: Ipv6Addr) -> bool {
    let s = ip.segments();
    let embedded = |high: u16, low: u16| {
        let [a, b] = high.to_be_bytes();
        let [c, d] = low.to_be_bytes();
        internal_v4(Ipv4Addr::new(a, b, c, d))
    };
    ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        // Unique local fc00::/7, link-local fe80::/10, site-local fec0::/10.
        || (s[0] & 0xfe00) == 0xfc00
        || (s[0] & 0xff80) == 0xfe80
        // Documentation 2001:db8::/32, Teredo 2001::/32, benchmarking
        // 2001:2::/48, discard 100::/64.
        || (s[0] == 0x2001 && matches!(s[1], 0x0db8 | 0))
        || (s[0] == 0x2001 && s[1] == 2 && s[2] == 0)
        || (s[0] == 0x100 && s[1..4] == [0, 0, 0])
        // IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::/96 and its local-use
        // 64:ff9b:1::/48, 6to4 2002::/16: the IPv4 address inside.
        || (s[..6] == [0; 6] && embedded(s[6], s[7]))
        // IPv4-translated ::ffff:0:a.b.c.d.
        || (s[..4] == [0; 4] && s[4] == 0xffff && s[5] == 0 && embedded(s[6], s[7]))
        || (s[0] == 0x64 && s[1] == 0xff9b && s[2..6] == [0; 4] && embedded(s[6], s[7]))
        || (s[0] == 0x64 && s[1] == 0xff9b && s[2] == 1)
        || (s[0] == 0x2002 && embedded(s[1], s[2]))
}

/// Check `url` the way a delivery will reach it, resolving its host now.
pub async fn check(url: &str, allow_private: bool) -> Result<Target, Refused> {
    let url = Url::parse(url).map_err(|_| Refused::NotAUrl)?;
    let host = url.host_str().ok_or(Refused::NotAUrl)?.to_string();
    let secure = match url.scheme() {
        "https" => true,
        "http" => false,
        _ => return Err(Refused::NotAUrl),
    };
    if !secure && !allow_private {
        return Err(Refused::NotHttps);
    }
    let port = url.port_or_known_default().ok_or(Refused::NotAUrl)?;
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let addresses: Vec<SocketAddr> = match bare.parse::<IpAddr>() {
        Ok(ip) => vec![SocketAddr::new(ip, port)],
        Err(_) => tokio::time::timeout(LOOKUP_TIMEOUT, tokio::net::lookup_host((bare, port)))
            .await
            .map_err(|_| Refused::Unresolved(host.clone()))?
            .map_err(|_| Refused::Unresolved(host.clone()))?
            .collect(),
    };
    if addresses.is_empty() {
        return Err(Refused::Unresolved(host));
    }
    if !allow_private {
        if let Some(internal) = addresses
            .iter()
            .map(SocketAddr::ip)
            .find(|ip| is_internal(*ip))
        {
            return Err(Refused::Internal(internal));
        }
    }
    Ok(Target { url, addresses })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_addresses_are_known() {
        for internal in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "fd00::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "2001:db8::1",
            "198.18.0.1",
            "198.19.255.254",
            "192.0.0.8",
            "192.88.99.1",
            "fec0::1",
            "2001::1",
            "100::1",
            "::10.0.0.1",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b:1::1",
            "2002:7f00:1::1",
            "2002:c0a8:101::1",
            "::ffff:0:7f00:1",
        ] {
            assert!(is_internal(internal.parse().unwrap()), "{internal}");
        }
        for public in [
            "1.1.1.1",
            "8.8.8.8",
            "100.128.0.1",
            "2606:4700::1111",
            "::ffff:1.1.1.1",
            "198.20.0.1",
            "64:ff9b::808:808",
            "2002:808:808::1",
            "2001:4860:4860::8888",
        ] {
            assert!(!is_internal(public.parse().unwrap()), "{public}");
        }
    }

    #[tokio::test]
    async fn targets_must_be_https_to_public_addresses() {
        assert_eq!(
            check("http://127.0.0.1/hook", false).await,
            Err(Refused::NotHttps)
        );
        assert_eq!(
            check("ftp://127.0.0.1/", false).await,
            Err(Refused::NotAUrl)
        );
        assert_eq!(check("/relative", false).await, Err(Refused::NotAUrl));
        assert_eq!(
            check("https://127.0.0.1:8443/hook", false).await,
            Err(Refused::Internal("127.0.0.1".parse().unwrap()))
        );
        assert_eq!(
            check("https://[::1]/hook", false).await,
            Err(Refused::Internal("::1".parse().unwrap()))
        );
        // A name is refused by what it resolves to (localhost resolves locally).
        assert!(matches!(
            check("https://localhost/hook", false).await,
            Err(Refused::Internal(_))
        ));
        // The operator's allowance (tests): loopback over plain http.
        let local = check("http://127.0.0.1:9000/hook", true).await.unwrap();
        assert_eq!(local.addresses, vec!["127.0.0.1:9000".parse().unwrap()]);
    }
}
