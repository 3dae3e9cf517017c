//! The token program's instructions a transaction carries, read from
//! their data and accounts, and what they hand over: delegates,
//! authorities, closed accounts.

use std::collections::HashMap;

use riskintel_chains::solana::layouts::TokenAccount;
use riskintel_chains::solana::wire::on_curve;
use riskintel_chains::solana::{self as sol, Pubkey};
use riskintel_types::{
    AccountKind, ApprovalChange, ApprovalKind, AuthorityChange, AuthorityKind, Risk, RiskKind,
    Severity,
};

use crate::presign::judge;
use crate::presign::parties::Party;

/// What the token program is asked to do, by the signer's accounts.
pub(super) enum TokenOp {
    Transfer {
        source: Pubkey,
        destination: Pubkey,
        owner: Pubkey,
        amount: u64,
    },
    Approve {
        source: Pubkey,
        delegate: Pubkey,
        owner: Pubkey,
        amount: u64,
    },
    SetAuthority {
        account: Pubkey,
        current: Pubkey,
        kind: u8,
        new: Option<Pubkey>,
    },
    Close {
        account: Pubkey,
        destination: Pubkey,
        owner: Pubkey,
    },
}

fn u64_at(data: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(data.get(at..at + 8)?.try_into().ok()?))
}

/// A token program instruction, from its data and its accounts' keys.
pub(super) fn token_op(data: &[u8], keys: &[Pubkey]) -> Option<TokenOp> {
    let k = |i: usize| keys.get(i).copied();
    match *data.first()? {
        3 => Some(TokenOp::Transfer {
            source: k(0)?,
            destination: k(1)?,
            owner: k(2)?,
            amount: u64_at(data, 1)?,
        }),
        12 => Some(TokenOp::Transfer {
            source: k(0)?,
            destination: k(2)?,
            owner: k(3)?,
            amount: u64_at(data, 1)?,
        }),
        4 => Some(TokenOp::Approve {
            source: k(0)?,
            delegate: k(1)?,
            owner: k(2)?,
            amount: u64_at(data, 1)?,
        }),
        13 => Some(TokenOp::Approve {
            source: k(0)?,
            delegate: k(2)?,
            owner: k(3)?,
            amount: u64_at(data, 1)?,
        }),
        6 => {
            let new = match data.get(2)? {
                0 => None,
                1 => Some(data.get(3..35)?.try_into().ok()?),
                _ => return None,
            };
            Some(TokenOp::SetAuthority {
                account: k(0)?,
                current: k(1)?,
                kind: *data.get(1)?,
                new,
            })
        }
        9 => Some(TokenOp::Close {
            account: k(0)?,
            destination: k(1)?,
            owner: k(2)?,
        }),
        _ => None,
    }
}

pub(super) fn program_name(program: &Pubkey) -> Option<&'static str> {
    let text = sol::encode(program);
    [
        (sol::SYSTEM_PROGRAM, "System Program"),
        (sol::TOKEN_PROGRAM, "SPL Token"),
        (sol::TOKEN_2022_PROGRAM, "Token-2022"),
        (sol::ATA_PROGRAM, "Associated Token Account"),
        (
            "ComputeBudget111111111111111111111111111111",
            "Compute Budget",
        ),
    ]
    .into_iter()
    .find(|(k, _)| *k == text)
    .map(|(_, name)| name)
}

/// The delegates, authorities and closes the signer's instructions grant,
/// with their findings; `token` reads an account before, `symbol` a mint's.
pub(super) fn grants(
    ops: &[TokenOp],
    signer: Pubkey,
    token: impl Fn(&Pubkey) -> Option<TokenAccount>,
    facts: &HashMap<Pubkey, (Option<String>, Option<u8>)>,
) -> (Vec<ApprovalChange>, Vec<AuthorityChange>, Vec<Risk>) {
    let mut risks = Vec::new();
    let mut approvals = Vec::new();
    let mut authorities = Vec::new();
    for op in ops {
        match op {
            TokenOp::Approve {
                source,
                delegate,
                owner,
                amount,
            } if *owner == signer => {
                let mint = token(source)
                    .map(|t| sol::encode(&t.mint))
                    .unwrap_or_else(|| sol::encode(source));
                let wallet = on_curve(delegate);
                let grant = ApprovalChange {
                    kind: ApprovalKind::Delegate,
                    symbol: token(source)
                        .and_then(|t| facts.get(&t.mint).and_then(|f| f.0.clone())),
                    token: mint,
                    spender: sol::encode(delegate),
                    spender_kind: if wallet {
                        AccountKind::Eoa
                    } else {
                        AccountKind::Contract
                    },
                    spender_name: None,
                    amount_raw: Some(amount.to_string()),
                    unlimited: *amount == u64::MAX,
                    expires_at: None,
                    revoked: *amount == 0,
                };
                let party = Party {
                    has_code: !wallet,
                    has_sent: wallet,
                    new: None,
                    ..Party::default()
                };
                risks.extend(judge::grant_risks(&grant, Some(&party), 0));
                approvals.push(grant);
            }
            TokenOp::SetAuthority {
                account,
                current,
                kind,
                new,
            } if *current == signer => {
                let kind = match kind {
                    0 => AuthorityKind::MintTokens,
                    1 => AuthorityKind::FreezeAccount,
                    2 => AuthorityKind::AccountOwner,
                    3 => AuthorityKind::CloseAuthority,
                    _ => AuthorityKind::Other,
                };
                let to_other = new.is_some_and(|n| n != signer);
                let holds_tokens = matches!(
                    kind,
                    AuthorityKind::AccountOwner | AuthorityKind::CloseAuthority
                );
                if to_other {
                    let (severity, what) = if holds_tokens {
                        (Severity::Critical, "Hands control of your token account, and every token in it, to another key.")
                    } else {
                        (
                            Severity::High,
                            "Hands an authority over a mint you control to another key.",
                        )
                    };
                    let new_key = new.map(|n| sol::encode(&n));
                    risks.push(judge::risk(
                        RiskKind::GrantToEoa,
                        severity,
                        new_key,
                        what.into(),
                    ));
                }
                authorities.push(AuthorityChange {
                    kind,
                    account: sol::encode(account),
                    new_authority: new.map(|n| sol::encode(&n)),
                });
            }
            TokenOp::Close {
                account,
                destination,
                owner,
            } if *owner == signer => {
                if *destination != signer {
                    risks.push(judge::risk(
                        RiskKind::NotChecked,
                        Severity::Medium,
                        Some(sol::encode(destination)),
                        "Closes a token account of yours and sends its rent to another key.".into(),
                    ));
                }
                authorities.push(AuthorityChange {
                    kind: AuthorityKind::CloseAccount,
                    account: sol::encode(account),
                    new_authority: Some(sol::encode(destination)),
                });
            }
            _ => {}
        }
    }
    (approvals, authorities, risks)
}
