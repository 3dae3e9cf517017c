//! Where a webhook may be delivered: `https` to a public address. A target
//! that is, or resolves to, a loopback, private, link-local, shared
//! (CGNAT), unspecified, multicast or documentation address is refused
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
    let [a, b, ..] = ip.octets();
    ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_multicast()
        || ip.is_broadcast()
        || ip.is_documentation()
        // Shared address space (RFC 6598), 0.0.0.0/8, 240.0.0.0/4.
        || (a == 100 && (64..128).contains(&b))
        || a == 0
        || a >= 240
}

fn internal_v6(ip: Ipv6Addr) -> bool {
    let first = ip.segments()[0];
    ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        // Unique local fc00::/7, link-local fe80::/10, documentation 2001:db8::/32.
        || (first & 0xfe00) == 0xfc00
        || (first & 0xffc0) == 0xfe80
        || (first == 0x2001 && ip.segments()[1] == 0x0db8)
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
        ] {
            assert!(is_internal(internal.parse().unwrap()), "{internal}");
        }
        for public in [
            "1.1.1.1",
            "8.8.8.8",
            "100.128.0.1",
            "2606:4700::1111",
            "::ffff:1.1.1.1",
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
