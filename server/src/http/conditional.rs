//! Conditional answers for the views of an analysis (analysis, meta,
//! explanation, badge): an `ETag` from the analysis's content and the view,
//! `Cache-Control: private, max-age=<seconds the analysis stays cached>`,
//! and 304 Not Modified, still metered, when `If-None-Match` names the tag.

use std::sync::Mutex;

use dropshot::HttpCodedResponse;
use http::HeaderValue;
use riskintel_api::header_cache::{written, HeaderCache};
use riskintel_api::Metered;

use super::context::ServerContext;
use riskintel_analysis::tokens::Analysed;

/// The tags of the analyses' views served lately, by digest and view.
static ETAGS: HeaderCache<(std::sync::Arc<str>, &'static str), 64> = HeaderCache::new();
/// The `Cache-Control` values of the ages served lately.
static AGES: HeaderCache<u64, 8> = HeaderCache::new();

/// What a view's answer is validated by.
pub(super) struct Validators {
    /// `"<digest>-<view>"`, quotes included.
    etag: HeaderValue,
    max_age: u64,
}

/// Where a handler leaves its view's validators for after metering.
#[derive(Default)]
pub(super) struct Slot(Mutex<Option<Validators>>);

impl Slot {
    /// Keep the validators of `view` of `analysed`.
    pub(super) fn keep(
        &self,
        ctx: &ServerContext,
        analysed: &Analysed,
        view: &'static str,
        now: chrono::DateTime<chrono::Utc>,
    ) {
        let tag = (analysed.digest.clone(), view);
        let Some(etag) = ETAGS.get_or(&tag, || {
            written(format_args!("\"{}-{view}\"", analysed.digest))
        }) else {
            return;
        };
        let validators = Validators {
            etag,
            max_age: ctx.analyzer.max_age_at(&analysed.analysis, now),
        };
        *self.0.lock().expect("validators lock") = Some(validators);
    }

    /// `response` with the kept validators' headers, as 304 when the
    /// request's `If-None-Match` names its tag.
    pub(super) fn apply<R: HttpCodedResponse>(
        &self,
        request: &dropshot::RequestInfo,
        response: Metered<R>,
    ) -> Metered<R> {
        let Some(v) = self.0.lock().expect("validators lock").take() else {
            return response;
        };
        let Some(cache) = AGES.get_or(&v.max_age, || {
            written(format_args!("private, max-age={}", v.max_age))
        }) else {
            return response;
        };
        let matches = names_tag(request, &v.etag);
        let response = response
            .with_success_header(http::header::ETAG, v.etag)
            .with_success_header(http::header::CACHE_CONTROL, cache);
        if matches {
            response.not_modified()
        } else {
            response
        }
    }
}

/// Whether the request's `If-None-Match` names `etag` (or `*`), compared
/// weakly (RFC 9110: a `W/` tag names the same version).
pub(super) fn names_tag(request: &dropshot::RequestInfo, etag: &HeaderValue) -> bool {
    let etag = etag.as_bytes();
    (request
        .headers()
        .get_all(http::header::IF_NONE_MATCH)
        .iter())
    .filter_map(|h| h.to_str().ok())
    .flat_map(|h| h.split(','))
    .map(|t| t.trim().trim_start_matches("W/"))
    .any(|t| t == "*" || t.as_bytes() == etag)
}
