//! Address screening: one address (with its chain facts), or up to 1,000
//! from memory, each counted; a batch item that cannot be screened carries
//! its own error.

use dropshot::{HttpResponseOk, Path, RequestContext, TypedBody};
use riskintel_api::{
    AddressPath, AddressScreen, AddressScreenBatch, AddressScreenBatchRequest, AddressScreenEntry,
    ApiError, ErrorCode, Metered, SCREEN_BATCH_MAX,
};

use riskintel_analysis::tokens::AnalysisError;

use super::errors::Wire;
use super::{access, ServerContext};

pub(super) async fn address_screen(
    rqctx: RequestContext<ServerContext>,
    path: Path<AddressPath>,
) -> Result<Metered<HttpResponseOk<AddressScreen>>, ApiError> {
    let ctx = rqctx.context();
    let path = path.into_inner();
    ctx.metered(&rqctx, &access::ADDRESS_SCREEN, async |_caller| {
        Ok(HttpResponseOk(
            ctx.screening
                .screen(super::chain_id(&path.chain)?, &path.address)
                .await
                .map_err(Wire::wire)?,
        ))
    })
    .await
}

pub(super) async fn address_batch_screen(
    rqctx: RequestContext<ServerContext>,
    body: TypedBody<AddressScreenBatchRequest>,
) -> Result<Metered<HttpResponseOk<AddressScreenBatch>>, ApiError> {
    let ctx = rqctx.context();
    let request = body.into_inner();
    let count = request.items.len();
    let well_sized = (1..=SCREEN_BATCH_MAX).contains(&count);
    // A batch the size rules refuse counts as one request.
    let items = if well_sized { count as u64 } else { 1 };
    ctx.metered_items(
        &rqctx,
        &access::ADDRESS_BATCH_SCREEN,
        items,
        async |caller| {
            if !well_sized {
                return Err(ApiError::new(
                    ErrorCode::ValidationError,
                    format!("items: a batch holds 1 to {SCREEN_BATCH_MAX} addresses, not {count}"),
                ));
            }
            let asked = (request.items.iter()).map(|i| {
                let chain =
                    riskintel_chains::chain_from_id(&i.chain).map_err(AnalysisError::from)?;
                Ok((chain, i.address.as_str()))
            });
            let answers = ctx.screening.screen_batch(asked).await;
            let results: Vec<AddressScreenEntry> = (request.items.into_iter())
                .zip(answers)
                .map(|(item, answer)| match answer {
                    Ok(screen) => AddressScreenEntry {
                        chain: item.chain,
                        address: item.address,
                        status: 200,
                        screen: Some(screen),
                        error: None,
                    },
                    Err(error) => {
                        let error = error.wire();
                        AddressScreenEntry {
                            chain: item.chain,
                            address: item.address,
                            status: error.error.code.status(),
                            screen: None,
                            error: Some(error.error),
                        }
                    }
                })
                .collect();
            let screened = results.iter().filter(|r| r.screen.is_some()).count() as u32;
            let sanctioned = (results.iter())
                .filter(|r| r.screen.as_ref().is_some_and(|s| s.sanctioned))
                .count() as u32;
            ctx.meter.add_usage(&caller.account, u64::from(screened));
            Ok(HttpResponseOk(AddressScreenBatch {
                failed: results.len() as u32 - screened,
                screened,
                sanctioned,
                results,
            }))
        },
    )
    .await
}
