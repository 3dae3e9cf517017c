//! The API reference served by the binary: `GET /docs` (the Scalar API
//! reference page, its bundle at `/docs/scalar.js` embedded at build time
//! from the `scalar_api_reference` crate, never a CDN), and
//! `GET /openapi.json` (the document itself). Public, with an `ETag` and
//! 304 when `If-None-Match` names it.

use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use dropshot::Body;
use http::{header, HeaderValue, StatusCode};
use riskintel_api::{ApiError, ErrorCode};

/// The page: Scalar over the served document, with no font or script
/// from elsewhere (the bundle is served beside it, relative to `/docs`).
const PAGE: &str = r#"<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>riskintel API reference</title>
  </head>
  <body>
    <div id="app"></div>
    <script src="docs/scalar.js"></script>
    <script>
      Scalar.createApiReference('#app', {
        url: 'openapi.json',
        withDefaultFonts: false,
        hideClientButton: true,
        telemetry: false,
        agent: { disabled: true },
        defaultOpenAllTags: true,
        showDeveloperTools: 'never',
        generateOperationSlug: (operation) => operation.operationId,
      })
    </script>
  </body>
</html>
"#;

/// One asset as served: its bytes, its type and its tag.
struct Asset {
    body: &'static [u8],
    content_type: &'static str,
    etag: HeaderValue,
}

impl Asset {
    fn new(body: &'static [u8], content_type: &'static str) -> Asset {
        let mut hasher = std::hash::DefaultHasher::new();
        body.hash(&mut hasher);
        let etag = HeaderValue::from_str(&format!("\"{:016x}\"", hasher.finish()))
            .expect("a hex tag is a header value");
        Asset {
            body,
            content_type,
            etag,
        }
    }

    /// The asset, or 304 when `request` already holds this version.
    fn answer(&self, request: &dropshot::RequestInfo) -> Result<http::Response<Body>, ApiError> {
        let fresh = super::conditional::names_tag(request, &self.etag);
        let builder = http::Response::builder()
            .header(header::ETAG, self.etag.clone())
            .header(
                header::CACHE_CONTROL,
                "public, max-age=300, must-revalidate",
            );
        let built = if fresh {
            builder.status(StatusCode::NOT_MODIFIED).body(Body::empty())
        } else {
            builder
                .status(StatusCode::OK)
                .header(header::CONTENT_TYPE, self.content_type)
                .body(Body::from(bytes::Bytes::from_static(self.body)))
        };
        built.map_err(|e| ApiError::new(ErrorCode::InternalError, e.to_string()))
    }
}

fn page() -> &'static Asset {
    static PAGE_ASSET: OnceLock<Asset> = OnceLock::new();
    PAGE_ASSET.get_or_init(|| Asset::new(PAGE.as_bytes(), "text/html; charset=utf-8"))
}

fn bundle() -> &'static Asset {
    static BUNDLE: OnceLock<Asset> = OnceLock::new();
    BUNDLE.get_or_init(|| {
        // The crate ships it; a build without it cannot serve the reference.
        let js = scalar_api_reference::get_asset("scalar.js")
            .expect("the scalar_api_reference crate ships ui/scalar.js");
        Asset::new(js.leak(), "text/javascript; charset=utf-8")
    })
}

fn document() -> &'static Asset {
    static DOCUMENT: OnceLock<Asset> = OnceLock::new();
    DOCUMENT.get_or_init(|| {
        let text = riskintel_api::openapi_document();
        Asset::new(text.leak().as_bytes(), "application/json")
    })
}

/// `GET /docs`.
pub(super) fn docs(request: &dropshot::RequestInfo) -> Result<http::Response<Body>, ApiError> {
    page().answer(request)
}

/// `GET /docs/scalar.js`.
pub(super) fn docs_bundle(
    request: &dropshot::RequestInfo,
) -> Result<http::Response<Body>, ApiError> {
    bundle().answer(request)
}

/// `GET /openapi.json`.
pub(super) fn openapi(request: &dropshot::RequestInfo) -> Result<http::Response<Body>, ApiError> {
    document().answer(request)
}
