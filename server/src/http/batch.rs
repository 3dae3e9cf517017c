//! `POST /v1/tokens/analyze`: a batch of token analyses. Every item counts
//! in the rate window; each item answered with an analysis counts as one
//! request in the monthly usage; the batch itself succeeds when well formed,
//! each item carrying its own error otherwise.

use dropshot::{HttpResponseOk, RequestContext, TypedBody};
use riskintel_api::{
    ApiError, BatchAnalysis, BatchAnalysisRequest, BatchEntry, ErrorCode, Metered, BATCH_MAX_ITEMS,
};

use super::errors::Wire;
use super::{access, ServerContext};

pub(super) async fn token_batch_analyze(
    rqctx: RequestContext<ServerContext>,
    body: TypedBody<BatchAnalysisRequest>,
) -> Result<Metered<HttpResponseOk<BatchAnalysis>>, ApiError> {
    let ctx = rqctx.context();
    let request = body.into_inner();
    let count = request.items.len();
    let well_sized = (1..=BATCH_MAX_ITEMS).contains(&count);
    // A batch the size rules refuse counts as one request.
    let items = if well_sized { count as u64 } else { 1 };
    ctx.metered_items(
        &rqctx,
        &access::TOKEN_BATCH_ANALYZE,
        items,
        async |caller| {
            if !well_sized {
                return Err(ApiError::new(
                    ErrorCode::ValidationError,
                    format!("items: a batch holds 1 to {BATCH_MAX_ITEMS} tokens, not {count}"),
                ));
            }
            let items = request
                .items
                .iter()
                .map(|item| (item.chain.as_str(), item.address.as_str()));
            let answers = ctx
                .analyzer
                .analysed_batch(items, request.fresh.unwrap_or(false))
                .await;
            let results: Vec<BatchEntry> = request
                .items
                .into_iter()
                .zip(answers)
                .map(|(item, answer)| {
                    match answer.and_then(|a| ctx.analyzer.overrides().shown(a)) {
                        Ok(analysed) => BatchEntry {
                            chain: item.chain,
                            address: item.address,
                            status: 200,
                            analysis: Some(analysed.json),
                            error: None,
                        },
                        Err(error) => {
                            let error = error.wire();
                            BatchEntry {
                                chain: item.chain,
                                address: item.address,
                                status: error.error.code.status(),
                                analysis: None,
                                error: Some(error.error),
                            }
                        }
                    }
                })
                .collect();
            let analysed = results.iter().filter(|r| r.analysis.is_some()).count() as u32;
            ctx.meter.add_usage(&caller.account, u64::from(analysed));
            Ok(HttpResponseOk(BatchAnalysis {
                failed: results.len() as u32 - analysed,
                analysed,
                results,
            }))
        },
    )
    .await
}
