//! A transaction request as a user wrote it, read into typed calls: every
//! field checked, each failure naming its field (422).

use alloy_primitives::{Address, Bytes, U256};
use riskintel_chains::evm::simulate::{AskedCall, SimCall};
use riskintel_chains::{parse_evm_address, InputError};
use riskintel_types::{EvmCall, TxSimulationRequest, SIMULATION_MAX_CALLS};

/// An EVM simulation asked for.
#[derive(Clone, Debug)]
pub struct AskedEvm {
    /// The signing wallet.
    pub from: Address,
    /// The calls, in order.
    pub calls: Vec<AskedCall>,
    /// The block to run on top of; the latest when none.
    pub block: Option<u64>,
}

fn invalid(text: String) -> InputError {
    InputError::Invalid(text)
}

/// A number written in decimal or 0x-prefixed hex.
pub fn number(field: &str, text: &str) -> Result<U256, InputError> {
    let parsed = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) if !hex.is_empty() && hex.len() <= 64 => U256::from_str_radix(hex, 16).ok(),
        Some(_) => None,
        None if !text.is_empty() && text.len() <= 78 => text.parse::<U256>().ok(),
        None => None,
    };
    parsed.ok_or_else(|| {
        invalid(format!(
            "{field}: {text:?} is not a number (decimal, or 0x-prefixed hex)"
        ))
    })
}

fn small(field: &str, text: &str) -> Result<u64, InputError> {
    let n = number(field, text)?;
    u64::try_from(n).map_err(|_| invalid(format!("{field}: {text} is too large")))
}

/// Bytes written as 0x-prefixed hex.
pub fn hex_bytes(field: &str, text: &str) -> Result<Bytes, InputError> {
    let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) else {
        return Err(invalid(format!("{field}: must be 0x-prefixed hex")));
    };
    hex::decode(hex)
        .map(Bytes::from)
        .map_err(|_| invalid(format!("{field}: not hex with an even number of digits")))
}

fn address(field: &str, text: &str) -> Result<Address, InputError> {
    parse_evm_address(text).map_err(|e| invalid(format!("{field}: {e}")))
}

/// Gas a call may ask for, at most.
const MAX_GAS: u64 = 100_000_000;

fn call(field: &str, from: Address, call: &EvmCall) -> Result<AskedCall, InputError> {
    let from = match &call.from {
        Some(text) => address(&format!("{field}.from"), text)?,
        None => from,
    };
    let gas = match &call.gas {
        Some(text) => {
            let gas = small(&format!("{field}.gas"), text)?;
            if !(21_000..=MAX_GAS).contains(&gas) {
                return Err(invalid(format!(
                    "{field}.gas: {gas} is outside 21000..={MAX_GAS}"
                )));
            }
            Some(gas)
        }
        None => None,
    };
    Ok(AskedCall {
        call: SimCall {
            from,
            to: address(&format!("{field}.to"), &call.to)?,
            data: match &call.data {
                Some(text) => hex_bytes(&format!("{field}.data"), text)?,
                None => Bytes::new(),
            },
            value: match &call.value {
                Some(text) => number(&format!("{field}.value"), text)?,
                None => U256::ZERO,
            },
        },
        gas,
    })
}

/// Read an EVM request: one call (`to`, …) or a bundle (`calls`).
pub fn evm(request: &TxSimulationRequest) -> Result<AskedEvm, InputError> {
    if request.transaction.is_some() || request.signer.is_some() {
        return Err(invalid(
            "transaction, signer: for `sol` only; an EVM simulation takes from and to, or calls"
                .into(),
        ));
    }
    let from = address(
        "from",
        request
            .from
            .as_deref()
            .ok_or_else(|| invalid("from: required".into()))?,
    )?;
    let single = EvmCall {
        from: None,
        to: request.to.clone().unwrap_or_default(),
        value: request.value.clone(),
        data: request.data.clone(),
        gas: request.gas.clone(),
    };
    let calls = match &request.calls {
        Some(calls) => {
            if request.to.is_some()
                || request.value.is_some()
                || request.data.is_some()
                || request.gas.is_some()
            {
                return Err(invalid(
                    "calls: give either calls, or to (with value, data, gas), not both".into(),
                ));
            }
            if calls.is_empty() || calls.len() > SIMULATION_MAX_CALLS {
                return Err(invalid(format!(
                    "calls: {} calls given; 1 to {SIMULATION_MAX_CALLS} are simulated at a time",
                    calls.len()
                )));
            }
            calls
                .iter()
                .enumerate()
                .map(|(i, c)| call(&format!("calls[{i}]"), from, c))
                .collect::<Result<Vec<_>, _>>()?
        }
        None if request.to.is_none() => return Err(invalid("to: required (or calls)".into())),
        None => vec![call("tx", from, &single)?],
    };
    let block = match &request.block {
        Some(text) => Some(small("block", text)?),
        None => None,
    };
    Ok(AskedEvm { from, calls, block })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request() -> TxSimulationRequest {
        TxSimulationRequest {
            chain: "eth".into(),
            from: Some("0x00000000000000000000000000000000000000aa".into()),
            to: Some("0x00000000000000000000000000000000000000bb".into()),
            value: Some("0x10".into()),
            data: Some("0x095ea7b3".into()),
            gas: None,
            block: None,
            calls: None,
            transaction: None,
            signer: None,
        }
    }

    #[test]
    fn fields_are_read_and_bad_ones_named() {
        let asked = evm(&request()).unwrap();
        assert_eq!(asked.calls[0].call.value, U256::from(16));
        assert_eq!(asked.calls[0].call.data.len(), 4);
        let bad = |r: TxSimulationRequest| evm(&r).unwrap_err().to_string();
        assert!(bad(TxSimulationRequest {
            data: Some("0x0".into()),
            ..request()
        })
        .starts_with("tx.data"));
        assert!(bad(TxSimulationRequest {
            value: Some("-1".into()),
            ..request()
        })
        .starts_with("tx.value"));
        assert!(bad(TxSimulationRequest {
            from: None,
            ..request()
        })
        .starts_with("from"));
        let eleven = vec![
            EvmCall {
                from: None,
                to: "0x00000000000000000000000000000000000000bb".into(),
                value: None,
                data: None,
                gas: None
            };
            11
        ];
        assert!(bad(TxSimulationRequest {
            to: None,
            value: None,
            data: None,
            calls: Some(eleven),
            ..request()
        })
        .starts_with("calls: 11"));
    }
}
