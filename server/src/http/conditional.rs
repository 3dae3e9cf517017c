//! Conditional answers for the views of an analysis (analysis, meta,
//! explanation, badge): an `ETag` from the analysis's content and the view,
//! `Cache-Control: private, max-age=<seconds the analysis stays cached>`,
//! and 304 Not Modified, still metered, when `If-None-Match` names the tag.

use std::sync::Mutex;

use dropshot::HttpCodedResponse;
use http::HeaderValue;
use riskintel_api::Metered;

use super::context::ServerContext;
use riskintel_analysis::tokens::Analysed;

/// What a view's answer is validated by.
pub(super) struct Validators {
    etag: String,
    max_age: u64,
}

/// Where a handler leaves its view's validators for after metering.
#[derive(Default)]
pub(super) struct Slot(Mutex<Option<Validators>>);

impl Slot {
    /// Keep the validators of `view` of `analysed`.
    pub(super) fn keep(&self, ctx: &ServerContext, analysed: &Analysed, view: &str) {
        let validators = Validators {
            etag: format!("\"{}-{view}\"", analysed.digest),
            max_age: ctx.analyzer.max_age(&analysed.analysis),
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
        let (Ok(etag), Ok(cache)) = (
            HeaderValue::from_str(&v.etag),
            HeaderValue::from_str(&format!("private, max-age={}", v.max_age)),
        ) else {
            return response;
        };
        let matches = request
            .headers()
            .get_all(http::header::IF_NONE_MATCH)
            .iter()
            .filter_map(|h| h.to_str().ok())
            .flat_map(|h| h.split(','))
            .map(|t| t.trim().trim_start_matches("W/"))
            .any(|t| t == "*" || t == v.etag);
        let response = response
            .with_success_header(http::header::ETAG, etag)
            .with_success_header(http::header::CACHE_CONTROL, cache);
        if matches {
            response.not_modified()
        } else {
            response
        }
    }
}
