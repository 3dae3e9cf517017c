//! What a simulated transaction's logs say it did: every token move (ERC-20,
//! ERC-721, ERC-1155, and native moves as `traceTransfers` logs them) and
//! every permission the wallet granted (ERC-20 and ERC-721 `Approval`,
//! `ApprovalForAll`, Permit2's `Approval` and `Permit`). Read by what the
//! logs are, whoever emitted them.

use alloy_primitives::{Address, B256, U256};
use alloy_sol_types::{sol, SolEvent};
use riskintel_chains::evm::simulate::NATIVE_TRANSFERS;
use riskintel_chains::evm::types::Log;
use riskintel_types::ApprovalKind;

sol! {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);
    event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
    event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values);
    /// Permit2's allowance events.
    interface IPermit2Events {
        event Approval(address indexed owner, address indexed token, address indexed spender, uint160 amount, uint48 expiration);
        event Permit(address indexed owner, address indexed token, address indexed spender, uint160 amount, uint48 expiration, uint48 nonce);
    }
}

/// The token standard of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Standard {
    /// The native currency.
    Native,
    /// ERC-20.
    Erc20,
    /// ERC-721.
    Erc721,
    /// ERC-1155.
    Erc1155,
}

/// One move of value seen in the logs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// Its standard.
    pub standard: Standard,
    /// The token ([`NATIVE_TRANSFERS`] for native).
    pub token: Address,
    /// The NFT id (ERC-721, ERC-1155).
    pub id: Option<U256>,
    /// From.
    pub from: Address,
    /// To.
    pub to: Address,
    /// Amount (1 for an ERC-721).
    pub amount: U256,
}

/// A permission the wallet granted or withdrew, seen in the logs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grant {
    /// How (refined by the call's selector, see [`kind_of_call`]).
    pub kind: ApprovalKind,
    /// The token (collection).
    pub token: Address,
    /// Who may spend.
    pub spender: Address,
    /// Amount; `None` for every NFT (`ApprovalForAll`) or one NFT.
    pub amount: Option<U256>,
    /// Every NFT of the collection.
    pub all: bool,
    /// Permit2: unix seconds when it ends.
    pub expires: Option<u64>,
    /// Withdrawn (amount zero, `approved = false`, approval to nobody).
    pub revoked: bool,
}

fn topic_address(topic: &B256) -> Address {
    Address::from_word(*topic)
}

/// The moves in `logs`.
pub fn moves(logs: &[Log]) -> Vec<Move> {
    let mut out = Vec::new();
    for log in logs {
        let Some(topic0) = log.topics.first() else {
            continue;
        };
        if *topic0 == Transfer::SIGNATURE_HASH {
            match (log.topics.len(), log.data.len()) {
                (3, 32) => out.push(Move {
                    standard: if log.address == NATIVE_TRANSFERS {
                        Standard::Native
                    } else {
                        Standard::Erc20
                    },
                    token: log.address,
                    id: None,
                    from: topic_address(&log.topics[1]),
                    to: topic_address(&log.topics[2]),
                    amount: U256::from_be_slice(&log.data),
                }),
                (4, 0) => out.push(Move {
                    standard: Standard::Erc721,
                    token: log.address,
                    id: Some(log.topics[3].into()),
                    from: topic_address(&log.topics[1]),
                    to: topic_address(&log.topics[2]),
                    amount: U256::from(1),
                }),
                _ => {}
            }
        } else if *topic0 == TransferSingle::SIGNATURE_HASH {
            if let Ok(e) = TransferSingle::decode_raw_log(log.topics.iter().copied(), &log.data) {
                out.push(Move {
                    standard: Standard::Erc1155,
                    token: log.address,
                    id: Some(e.id),
                    from: e.from,
                    to: e.to,
                    amount: e.value,
                });
            }
        } else if *topic0 == TransferBatch::SIGNATURE_HASH {
            if let Ok(e) = TransferBatch::decode_raw_log(log.topics.iter().copied(), &log.data) {
                for (id, value) in e.ids.iter().zip(e.values.iter()) {
                    out.push(Move {
                        standard: Standard::Erc1155,
                        token: log.address,
                        id: Some(*id),
                        from: e.from,
                        to: e.to,
                        amount: *value,
                    });
                }
            }
        }
    }
    out
}

/// The permissions `owner` granted or withdrew in `logs`, each of the kind
/// `call_kind` says the call was (an ERC-20 `Approval` emitted by a
/// `permit` call is a permit).
pub fn grants(logs: &[Log], owner: Address, call_kind: ApprovalKind) -> Vec<Grant> {
    let mut out = Vec::new();
    for log in logs {
        let Some(topic0) = log.topics.first() else {
            continue;
        };
        let by_owner = log.topics.get(1).map(topic_address) == Some(owner);
        if !by_owner {
            continue;
        }
        if *topic0 == Approval::SIGNATURE_HASH {
            match (log.topics.len(), log.data.len()) {
                (3, 32) => {
                    let amount = U256::from_be_slice(&log.data);
                    out.push(Grant {
                        kind: call_kind,
                        token: log.address,
                        spender: topic_address(&log.topics[2]),
                        amount: Some(amount),
                        all: false,
                        expires: None,
                        revoked: amount.is_zero(),
                    });
                }
                (4, 0) => {
                    let spender = topic_address(&log.topics[2]);
                    out.push(Grant {
                        kind: ApprovalKind::Approve,
                        token: log.address,
                        spender,
                        amount: None,
                        all: false,
                        expires: None,
                        revoked: spender == Address::ZERO,
                    });
                }
                _ => {}
            }
        } else if *topic0 == ApprovalForAll::SIGNATURE_HASH {
            if let Ok(e) = ApprovalForAll::decode_raw_log(log.topics.iter().copied(), &log.data) {
                out.push(Grant {
                    kind: ApprovalKind::SetApprovalForAll,
                    token: log.address,
                    spender: e.operator,
                    amount: None,
                    all: true,
                    expires: None,
                    revoked: !e.approved,
                });
            }
        } else if *topic0 == IPermit2Events::Approval::SIGNATURE_HASH
            || *topic0 == IPermit2Events::Permit::SIGNATURE_HASH
        {
            let decoded = IPermit2Events::Approval::decode_raw_log(
                log.topics.iter().copied(),
                &log.data[..log.data.len().min(64)],
            );
            if let Ok(e) = decoded {
                let amount = U256::from(e.amount);
                out.push(Grant {
                    kind: ApprovalKind::Permit2,
                    token: e.token,
                    spender: e.spender,
                    amount: Some(amount),
                    all: false,
                    expires: Some(e.expiration.to::<u64>()),
                    revoked: amount.is_zero(),
                });
            }
        }
    }
    out
}

/// What kind of grant a call's data makes, by its selector.
pub fn kind_of_call(data: &[u8]) -> ApprovalKind {
    match data.get(..4) {
        Some([0x39, 0x50, 0x93, 0x51]) => ApprovalKind::IncreaseAllowance,
        // EIP-2612 permit(address,address,uint256,uint256,uint8,bytes32,bytes32), DAI's permit.
        Some([0xd5, 0x05, 0xac, 0xcf]) | Some([0x8f, 0xcb, 0xaf, 0x0c]) => ApprovalKind::Permit,
        Some([0xa2, 0x2c, 0xb4, 0x65]) => ApprovalKind::SetApprovalForAll,
        _ => ApprovalKind::Approve,
    }
}

/// An amount at or above this is unlimited: 2^255 for `uint256` grants,
/// 2^159 for Permit2's `uint160` (what wallets and dapps grant as "max").
pub fn is_unlimited(grant: &Grant) -> bool {
    match grant.amount {
        None => grant.all,
        Some(amount) => {
            let floor = if grant.kind == ApprovalKind::Permit2 {
                U256::from(1) << 159
            } else {
                U256::from(1) << 255
            };
            amount >= floor
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::{address, Bytes};
    use alloy_sol_types::SolCall;

    sol! {
        function increaseAllowance(address spender, uint256 added);
        function setApprovalForAll(address operator, bool approved);
        function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s);
    }

    fn log(address: Address, topics: Vec<B256>, data: Vec<u8>) -> Log {
        serde_json::from_value(
            serde_json::json!({"address": address, "topics": topics, "data": Bytes::from(data)}),
        )
        .unwrap()
    }

    #[test]
    fn selectors_are_the_published_ones() {
        assert_eq!(
            kind_of_call(&increaseAllowanceCall::SELECTOR),
            ApprovalKind::IncreaseAllowance
        );
        assert_eq!(
            kind_of_call(&setApprovalForAllCall::SELECTOR),
            ApprovalKind::SetApprovalForAll
        );
        assert_eq!(kind_of_call(&permitCall::SELECTOR), ApprovalKind::Permit);
    }

    #[test]
    fn erc20_erc721_and_native_moves_are_told_apart_by_their_shape() {
        let (a, b) = (
            address!("00000000000000000000000000000000000000aa"),
            address!("00000000000000000000000000000000000000bb"),
        );
        let token = address!("00000000000000000000000000000000000000cc");
        let logs = vec![
            log(
                token,
                vec![Transfer::SIGNATURE_HASH, a.into_word(), b.into_word()],
                U256::from(5).to_be_bytes_vec(),
            ),
            log(
                token,
                vec![
                    Transfer::SIGNATURE_HASH,
                    a.into_word(),
                    b.into_word(),
                    U256::from(7).into(),
                ],
                vec![],
            ),
            log(
                NATIVE_TRANSFERS,
                vec![Transfer::SIGNATURE_HASH, a.into_word(), b.into_word()],
                U256::from(9).to_be_bytes_vec(),
            ),
        ];
        let m = moves(&logs);
        assert_eq!(m.len(), 3);
        assert_eq!(
            (m[0].standard, m[0].amount),
            (Standard::Erc20, U256::from(5))
        );
        assert_eq!(
            (m[1].standard, m[1].id),
            (Standard::Erc721, Some(U256::from(7)))
        );
        assert_eq!(m[2].standard, Standard::Native);
    }

    #[test]
    fn permit2_grants_read_amount_and_expiry_and_only_the_owners_count() {
        let (owner, other) = (
            address!("00000000000000000000000000000000000000aa"),
            address!("00000000000000000000000000000000000000ab"),
        );
        let (token, spender) = (
            address!("00000000000000000000000000000000000000cc"),
            address!("00000000000000000000000000000000000000dd"),
        );
        let mut data = (U256::from(1u64) << 160usize)
            .saturating_sub(U256::from(1u64))
            .to_be_bytes_vec();
        data.extend(U256::from(1_900_000_000u64).to_be_bytes_vec());
        let approval = |who: Address| {
            log(
                address!("000000000022D473030F116dDEE9F6B43aC78BA3"),
                vec![
                    IPermit2Events::Approval::SIGNATURE_HASH,
                    who.into_word(),
                    token.into_word(),
                    spender.into_word(),
                ],
                data.clone(),
            )
        };
        let g = grants(
            &[approval(owner), approval(other)],
            owner,
            ApprovalKind::Approve,
        );
        assert_eq!(g.len(), 1);
        assert_eq!(
            (g[0].kind, g[0].token, g[0].spender, g[0].expires),
            (ApprovalKind::Permit2, token, spender, Some(1_900_000_000))
        );
        assert!(is_unlimited(&g[0]));
    }
}
