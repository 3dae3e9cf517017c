//! Before a user signs: a transaction simulated (`evm`, `solana`) or a
//! signature request decoded (`typed_data`), what it would do to the
//! signing wallet, the findings and the verdict (`judge`), with the parties
//! (`parties`) and tokens (`assets`) it touches looked up.

mod assets;
mod changes;
mod events;
mod evm;
mod judge;
mod known;
mod parties;
mod request;
mod solana;
mod typed_data;

use std::sync::Arc;

use riskintel_chains::{chain_from_id, Chain};
use riskintel_store::clock::Clock;
use riskintel_store::Store;
use riskintel_types::{SignatureScan, SignatureScanRequest, TxSimulation, TxSimulationRequest};

use crate::screening::Screening;
use crate::tokens::{AnalysisError, Analyzer};

/// Transaction simulation and signature scanning over the token engine.
#[derive(Clone)]
pub struct Presign {
    analyzer: Arc<Analyzer>,
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    screening: Arc<Screening>,
}

impl Presign {
    /// Over `analyzer`'s chains, with `store` for the service's record and
    /// `screening` for the sanctions lists and flags of counterparties.
    pub fn new(
        analyzer: Arc<Analyzer>,
        store: Arc<dyn Store>,
        clock: Arc<dyn Clock>,
        screening: Arc<Screening>,
    ) -> Presign {
        Presign {
            analyzer,
            store,
            clock,
            screening,
        }
    }

    /// What a transaction would do, judged; within the analysis deadline.
    pub async fn simulate(
        &self,
        request: &TxSimulationRequest,
    ) -> Result<TxSimulation, AnalysisError> {
        let chain = chain_from_id(&request.chain)?;
        let deadline = self.analyzer.deadline();
        let work = async {
            if chain == Chain::Sol {
                return solana::simulate(self, request).await;
            }
            self.analyzer.chains().evm(chain)?;
            let asked = request::evm(request)?;
            evm::simulate(self, chain, asked).await
        };
        match tokio::time::timeout(deadline, work).await {
            Ok(result) => result,
            Err(_) => Err(AnalysisError::past_deadline("the simulation", deadline)),
        }
    }

    /// What a signature would grant, judged; within the analysis deadline.
    pub async fn scan_signature(
        &self,
        request: &SignatureScanRequest,
    ) -> Result<SignatureScan, AnalysisError> {
        let chain = chain_from_id(&request.chain)?;
        let deadline = self.analyzer.deadline();
        match tokio::time::timeout(deadline, typed_data::scan(self, chain, request)).await {
            Ok(result) => result,
            Err(_) => Err(AnalysisError::past_deadline("the signature scan", deadline)),
        }
    }
}
