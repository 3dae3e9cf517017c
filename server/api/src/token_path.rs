//! The path of the one-token routes (`/v1/token/{chain}/{address}/…`),
//! documented exactly as `Path<TokenPath>` and read from the request's own
//! path: the two segments copied, where the framework's extractor copies
//! its whole map of variables and deserialises from the copy (about ten
//! allocations on the hot path). A path it cannot read plainly (a
//! percent-escape, an unexpected shape) is left to the framework's extractor.

use async_trait::async_trait;
use dropshot::{
    ApiEndpointBodyContentType, ExtractorMetadata, HttpError, Path, RequestContext, ServerContext,
    SharedExtractor,
};

use crate::token::TokenPath;

/// `chain` and `address` of a `/v1/token/{chain}/{address}/…` route.
pub struct TokenAt(TokenPath);

impl TokenAt {
    /// The path's parameters.
    pub fn into_inner(self) -> TokenPath {
        self.0
    }
}

/// The parameters as the framework would read them from `path`, when they
/// are plain (no percent-escape, both present).
fn plain(path: &str) -> Option<TokenPath> {
    let mut segments = path.strip_prefix("/v1/token/")?.split('/');
    let (chain, address) = (segments.next()?, segments.next()?);
    let usable = |s: &str| !s.is_empty() && !s.contains('%');
    (usable(chain) && usable(address) && segments.next().is_some()).then(|| TokenPath {
        chain: chain.to_owned(),
        address: address.to_owned(),
    })
}

#[async_trait]
impl SharedExtractor for TokenAt {
    async fn from_request<Context: ServerContext>(
        rqctx: &RequestContext<Context>,
    ) -> Result<TokenAt, HttpError> {
        match plain(rqctx.request.uri().path()) {
            Some(path) => Ok(TokenAt(path)),
            None => Ok(TokenAt(
                Path::<TokenPath>::from_request(rqctx).await?.into_inner(),
            )),
        }
    }

    fn metadata(body_content_type: ApiEndpointBodyContentType) -> ExtractorMetadata {
        Path::<TokenPath>::metadata(body_content_type)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_paths_are_read_and_others_left_to_the_framework() {
        let read = plain("/v1/token/eth/0xAbC/analyze").expect("plain");
        assert_eq!(
            (read.chain.as_str(), read.address.as_str()),
            ("eth", "0xAbC")
        );
        for other in [
            "/v1/token/eth/0x%41bc/analyze",
            "/v1/token/eth//analyze",
            "/v1/token/eth/0xabc",
            "/v1/tokens/analyze",
        ] {
            assert!(plain(other).is_none(), "{other}");
        }
    }

    /// Every one-token route (those taking [`TokenAt`]) has `chain` and
    /// `address` as its third and fourth segments, where [`plain`] reads them.
    #[test]
    fn every_one_token_route_puts_chain_and_address_where_they_are_read() {
        let document: serde_json::Value =
            serde_json::from_str(&crate::openapi_document()).expect("the document");
        let paths = document["paths"].as_object().expect("paths");
        let mut seen = 0;
        for (path, item) in paths {
            for operation in item.as_object().expect("methods").values() {
                let params = operation["parameters"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                let in_path = |name: &str| {
                    params
                        .iter()
                        .any(|p| p["in"] == "path" && p["name"] == name)
                };
                if path.starts_with("/v1/token/") && in_path("address") {
                    seen += 1;
                    assert!(
                        path.starts_with("/v1/token/{chain}/{address}/"),
                        "{path} reads chain and address elsewhere"
                    );
                }
            }
        }
        assert!(seen >= 6, "only {seen} one-token routes");
    }
}
