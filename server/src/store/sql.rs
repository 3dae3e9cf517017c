//! The SQL both backends run, written once. `impl_sql_store!` expands it for
//! a store type with `pool` (reads) and `writer` (writes) fields of type
//! `sqlx::Pool<DB>`; SQLite and PostgreSQL
//! accept the same statements (`$N` placeholders, `ON CONFLICT … DO UPDATE`,
//! `RETURNING`).

pub(crate) const KEY_COLUMNS: &str = "k.id, k.account_id, k.name, k.scopes, k.secret_hash, \
     k.previous_secret_hash, k.previous_valid_until, k.created_at, k.expires_at, \
     k.last_used_at, k.rotated_at, k.revoked_at";

pub(crate) const ACCOUNT_COLUMNS: &str = "a.id AS a_id, a.name AS a_name, a.plan AS a_plan, \
     a.created_at AS a_created_at";

macro_rules! impl_sql_store {
    ($store:ty, $row:ty, $db:ty) => {
        /// Move a log index from `expected_next` (None: create it) to
        /// `state`, inside `tx`; false when another indexer moved it first.
        async fn claim_log_index(
            tx: &mut sqlx::Transaction<'_, $db>,
            chain: &str,
            kind: $crate::store::LogIndexKind,
            subject: &str,
            expected_next: Option<i64>,
            state: &$crate::store::LogIndexState,
        ) -> Result<bool, $crate::store::StoreError> {
            let done = match expected_next {
                None => sqlx::query(
                    "INSERT INTO log_indexes (chain, kind, subject, start_block, next_block, first_block) \
                     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (chain, kind, subject) DO NOTHING",
                )
                .bind(chain)
                .bind(kind.as_str())
                .bind(subject)
                .bind(state.start_block)
                .bind(state.next_block)
                .bind(state.first_block)
                .execute(&mut **tx)
                .await?,
                Some(expected) => sqlx::query(
                    "UPDATE log_indexes SET next_block = $1, first_block = $2 \
                     WHERE chain = $3 AND kind = $4 AND subject = $5 AND next_block = $6",
                )
                .bind(state.next_block)
                .bind(state.first_block)
                .bind(chain)
                .bind(kind.as_str())
                .bind(subject)
                .bind(expected)
                .bind(&state.first_party)
                .execute(&mut **tx)
                .await?,
            };
            Ok(done.rows_affected() == 1)
        }

        fn key_from_row(row: &$row) -> Result<$crate::store::KeyRecord, $crate::store::StoreError> {
            use sqlx::Row;
            Ok($crate::store::KeyRecord {
                id: row.try_get("id")?,
                account_id: row.try_get("account_id")?,
                name: row.try_get("name")?,
                scopes: $crate::store::scopes_from_text(&row.try_get::<String, _>("scopes")?)?,
                secret_hash: row.try_get("secret_hash")?,
                previous_secret_hash: row.try_get("previous_secret_hash")?,
                previous_valid_until: row.try_get("previous_valid_until")?,
                created_at: row.try_get("created_at")?,
                expires_at: row.try_get("expires_at")?,
                last_used_at: row.try_get("last_used_at")?,
                rotated_at: row.try_get("rotated_at")?,
                revoked_at: row.try_get("revoked_at")?,
            })
        }

        fn account_from_row(
            row: &$row,
            prefix: &str,
        ) -> Result<$crate::store::Account, $crate::store::StoreError> {
            use sqlx::Row;
            let col = |name: &str| format!("{prefix}{name}");
            Ok($crate::store::Account {
                id: row.try_get(col("id").as_str())?,
                name: row.try_get(col("name").as_str())?,
                plan: $crate::store::plan_from_text(&row.try_get::<String, _>(col("plan").as_str())?)?,
                created_at: row.try_get(col("created_at").as_str())?,
            })
        }

        fn holder_from_row(row: &$row) -> Result<$crate::store::HolderBalance, $crate::store::StoreError> {
            use sqlx::Row;
            Ok($crate::store::HolderBalance {
                holder: row.try_get("holder")?,
                balance: row.try_get("balance")?,
                sort_key: row.try_get("sort_key")?,
            })
        }

        #[async_trait::async_trait]
        impl $crate::store::Store for $store {
            fn backend(&self) -> &'static str {
                Self::BACKEND
            }

            async fn migrate(&self) -> Result<(), $crate::store::StoreError> {
                Self::MIGRATOR.run(&self.writer).await?;
                Ok(())
            }

            async fn ping(&self) -> Result<(), $crate::store::StoreError> {
                sqlx::query("SELECT 1").execute(&self.pool).await?;
                Ok(())
            }

            async fn close(&self) {
                self.writer.close().await;
                self.pool.close().await;
            }

            async fn account_insert(
                &self,
                account: &$crate::store::Account,
            ) -> Result<(), $crate::store::StoreError> {
                sqlx::query("INSERT INTO accounts (id, name, plan, created_at) VALUES ($1, $2, $3, $4)")
                    .bind(&account.id)
                    .bind(&account.name)
                    .bind($crate::store::plan_to_text(account.plan))
                    .bind(account.created_at)
                    .execute(&self.writer)
                    .await?;
                Ok(())
            }

            async fn account_get(
                &self,
                id: &str,
            ) -> Result<Option<$crate::store::Account>, $crate::store::StoreError> {
                let sql = format!("SELECT {} FROM accounts a WHERE a.id = $1", $crate::store::sql::ACCOUNT_COLUMNS);
                let row = sqlx::query(&sql).bind(id).fetch_optional(&self.pool).await?;
                row.map(|r| account_from_row(&r, "a_")).transpose()
            }

            async fn account_list(&self) -> Result<Vec<$crate::store::Account>, $crate::store::StoreError> {
                let sql = format!(
                    "SELECT {} FROM accounts a ORDER BY a.created_at, a.id",
                    $crate::store::sql::ACCOUNT_COLUMNS
                );
                let rows = sqlx::query(&sql).fetch_all(&self.pool).await?;
                rows.iter().map(|r| account_from_row(r, "a_")).collect()
            }

            async fn account_set_plan(
                &self,
                id: &str,
                plan: riskintel_api::Plan,
            ) -> Result<bool, $crate::store::StoreError> {
                let done = sqlx::query("UPDATE accounts SET plan = $1 WHERE id = $2")
                    .bind($crate::store::plan_to_text(plan))
                    .bind(id)
                    .execute(&self.writer)
                    .await?;
                Ok(done.rows_affected() == 1)
            }

            async fn account_count(&self) -> Result<i64, $crate::store::StoreError> {
                use sqlx::Row;
                let row = sqlx::query("SELECT COUNT(*) AS n FROM accounts").fetch_one(&self.pool).await?;
                Ok(row.try_get("n")?)
            }

            async fn key_insert(
                &self,
                key: &$crate::store::KeyRecord,
            ) -> Result<(), $crate::store::StoreError> {
                sqlx::query(
                    "INSERT INTO api_keys (id, account_id, name, scopes, secret_hash, \
                     previous_secret_hash, previous_valid_until, created_at, expires_at, \
                     last_used_at, rotated_at, revoked_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
                )
                .bind(&key.id)
                .bind(&key.account_id)
                .bind(&key.name)
                .bind($crate::store::scopes_to_text(&key.scopes))
                .bind(&key.secret_hash)
                .bind(&key.previous_secret_hash)
                .bind(key.previous_valid_until)
                .bind(key.created_at)
                .bind(key.expires_at)
                .bind(key.last_used_at)
                .bind(key.rotated_at)
                .bind(key.revoked_at)
                .execute(&self.writer)
                .await?;
                Ok(())
            }

            async fn key_get(
                &self,
                id: &str,
            ) -> Result<Option<$crate::store::KeyWithAccount>, $crate::store::StoreError> {
                let sql = format!(
                    "SELECT {}, {} FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.id = $1",
                    $crate::store::sql::KEY_COLUMNS,
                    $crate::store::sql::ACCOUNT_COLUMNS
                );
                let row = sqlx::query(&sql).bind(id).fetch_optional(&self.pool).await?;
                row.map(|r| {
                    Ok($crate::store::KeyWithAccount {
                        key: key_from_row(&r)?,
                        account: account_from_row(&r, "a_")?,
                    })
                })
                .transpose()
            }

            async fn key_list(
                &self,
                account_id: &str,
                after: Option<(chrono::DateTime<chrono::Utc>, String)>,
                limit: i64,
            ) -> Result<Vec<$crate::store::KeyRecord>, $crate::store::StoreError> {
                let rows = match after {
                    None => {
                        let sql = format!(
                            "SELECT {} FROM api_keys k WHERE k.account_id = $1 AND k.revoked_at IS NULL \
                             ORDER BY k.created_at, k.id LIMIT $2",
                            $crate::store::sql::KEY_COLUMNS
                        );
                        sqlx::query(&sql).bind(account_id).bind(limit).fetch_all(&self.pool).await?
                    }
                    Some((created_at, id)) => {
                        let sql = format!(
                            "SELECT {} FROM api_keys k WHERE k.account_id = $1 AND k.revoked_at IS NULL \
                             AND (k.created_at > $2 OR (k.created_at = $2 AND k.id > $3)) \
                             ORDER BY k.created_at, k.id LIMIT $4",
                            $crate::store::sql::KEY_COLUMNS
                        );
                        sqlx::query(&sql)
                            .bind(account_id)
                            .bind(created_at)
                            .bind(id)
                            .bind(limit)
                            .fetch_all(&self.pool)
                            .await?
                    }
                };
                rows.iter().map(key_from_row).collect()
            }

            async fn key_rotate(
                &self,
                id: &str,
                new_hash: &str,
                previous_hash: &str,
                previous_valid_until: chrono::DateTime<chrono::Utc>,
                rotated_at: chrono::DateTime<chrono::Utc>,
            ) -> Result<bool, $crate::store::StoreError> {
                // Guarded on the hash being replaced, so two rotations racing
                // cannot both succeed and leave two grace secrets.
                let done = sqlx::query(
                    "UPDATE api_keys SET secret_hash = $1, previous_secret_hash = $2, \
                     previous_valid_until = $3, rotated_at = $4 \
                     WHERE id = $5 AND secret_hash = $2 AND revoked_at IS NULL",
                )
                .bind(new_hash)
                .bind(previous_hash)
                .bind(previous_valid_until)
                .bind(rotated_at)
                .bind(id)
                .execute(&self.writer)
                .await?;
                Ok(done.rows_affected() == 1)
            }

            async fn key_revoke(
                &self,
                id: &str,
                at: chrono::DateTime<chrono::Utc>,
            ) -> Result<bool, $crate::store::StoreError> {
                let done = sqlx::query(
                    "UPDATE api_keys SET revoked_at = $1, previous_secret_hash = NULL, \
                     previous_valid_until = NULL WHERE id = $2 AND revoked_at IS NULL",
                )
                .bind(at)
                .bind(id)
                .execute(&self.writer)
                .await?;
                Ok(done.rows_affected() == 1)
            }

            async fn key_touch(
                &self,
                id: &str,
                at: chrono::DateTime<chrono::Utc>,
            ) -> Result<(), $crate::store::StoreError> {
                sqlx::query("UPDATE api_keys SET last_used_at = $1 WHERE id = $2")
                    .bind(at)
                    .bind(id)
                    .execute(&self.writer)
                    .await?;
                Ok(())
            }

            async fn rate_window_hit(
                &self,
                account_id: &str,
                window_start: chrono::DateTime<chrono::Utc>,
            ) -> Result<i64, $crate::store::StoreError> {
                use sqlx::Row;
                let row = sqlx::query(
                    "INSERT INTO rate_windows (account_id, window_start, requests) VALUES ($1, $2, 1) \
                     ON CONFLICT (account_id, window_start) \
                     DO UPDATE SET requests = rate_windows.requests + 1 RETURNING requests",
                )
                .bind(account_id)
                .bind(window_start)
                .fetch_one(&self.writer)
                .await?;
                Ok(row.try_get("requests")?)
            }

            async fn rate_window_prune(
                &self,
                before: chrono::DateTime<chrono::Utc>,
            ) -> Result<u64, $crate::store::StoreError> {
                let done = sqlx::query("DELETE FROM rate_windows WHERE window_start < $1")
                    .bind(before)
                    .execute(&self.writer)
                    .await?;
                Ok(done.rows_affected())
            }

            async fn usage_reserve(
                &self,
                account_id: &str,
                period_start: chrono::DateTime<chrono::Utc>,
                cap: Option<i64>,
            ) -> Result<Option<i64>, $crate::store::StoreError> {
                use sqlx::Row;
                // One statement: the check and the increment cannot be split
                // by a concurrent request, so the cap is never overshot.
                let row = sqlx::query(
                    "INSERT INTO monthly_usage (account_id, period_start, requests) VALUES ($1, $2, 1) \
                     ON CONFLICT (account_id, period_start) \
                     DO UPDATE SET requests = monthly_usage.requests + 1 \
                     WHERE monthly_usage.requests < $3 RETURNING requests",
                )
                .bind(account_id)
                .bind(period_start)
                .bind(cap.unwrap_or(i64::MAX))
                .fetch_optional(&self.writer)
                .await?;
                row.map(|r| r.try_get("requests").map_err(Into::into)).transpose()
            }

            async fn usage_release(
                &self,
                account_id: &str,
                period_start: chrono::DateTime<chrono::Utc>,
            ) -> Result<(), $crate::store::StoreError> {
                sqlx::query(
                    "UPDATE monthly_usage SET requests = requests - 1 \
                     WHERE account_id = $1 AND period_start = $2 AND requests > 0",
                )
                .bind(account_id)
                .bind(period_start)
                .execute(&self.writer)
                .await?;
                Ok(())
            }

            async fn usage_get(
                &self,
                account_id: &str,
                period_start: chrono::DateTime<chrono::Utc>,
            ) -> Result<i64, $crate::store::StoreError> {
                use sqlx::Row;
                let row = sqlx::query(
                    "SELECT requests FROM monthly_usage WHERE account_id = $1 AND period_start = $2",
                )
                .bind(account_id)
                .bind(period_start)
                .fetch_optional(&self.pool)
                .await?;
                Ok(match row {
                    Some(r) => r.try_get("requests")?,
                    None => 0,
                })
            }

            async fn analysis_get(
                &self,
                chain: &str,
                address: &str,
            ) -> Result<Option<(String, chrono::DateTime<chrono::Utc>)>, $crate::store::StoreError> {
                use sqlx::Row;
                let row = sqlx::query("SELECT result, analysed_at FROM token_analyses WHERE chain = $1 AND address = $2")
                    .bind(chain)
                    .bind(address)
                    .fetch_optional(&self.pool)
                    .await?;
                row.map(|r| Ok((r.try_get("result")?, r.try_get("analysed_at")?))).transpose()
            }

            async fn analysis_put(
                &self,
                chain: &str,
                address: &str,
                result: &str,
                analysed_at: chrono::DateTime<chrono::Utc>,
            ) -> Result<(), $crate::store::StoreError> {
                sqlx::query(
                    "INSERT INTO token_analyses (chain, address, result, analysed_at) VALUES ($1, $2, $3, $4) \
                     ON CONFLICT (chain, address) DO UPDATE SET result = $3, analysed_at = $4",
                )
                .bind(chain)
                .bind(address)
                .bind(result)
                .bind(analysed_at)
                .execute(&self.writer)
                .await?;
                Ok(())
            }

            async fn log_index_get(
                &self,
                chain: &str,
                kind: $crate::store::LogIndexKind,
                subject: &str,
            ) -> Result<Option<$crate::store::LogIndexState>, $crate::store::StoreError> {
                use sqlx::Row;
                let row = sqlx::query(
                    "SELECT start_block, next_block, first_block, first_party FROM log_indexes WHERE chain = $1 AND kind = $2 AND subject = $3",
                )
                .bind(chain)
                .bind(kind.as_str())
                .bind(subject)
                .fetch_optional(&self.pool)
                .await?;
                row.map(|r| {
                    Ok($crate::store::LogIndexState {
                        start_block: r.try_get("start_block")?,
                        next_block: r.try_get("next_block")?,
                        first_block: r.try_get("first_block")?,
                        first_party: r.try_get("first_party")?,
                    })
                })
                .transpose()
            }

            async fn holder_balances_get(
                &self,
                chain: &str,
                token: &str,
                holders: &[String],
            ) -> Result<Vec<$crate::store::HolderBalance>, $crate::store::StoreError> {
                let mut found = Vec::new();
                for chunk in holders.chunks(500) {
                    // Placeholders only ($3, $4, …); every value is bound.
                    let placeholders: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 3)).collect();
                    let sql = format!(
                        "SELECT holder, balance, sort_key FROM holder_balances \
                         WHERE chain = $1 AND token = $2 AND holder IN ({})",
                        placeholders.join(", ")
                    );
                    let mut query = sqlx::query(&sql).bind(chain).bind(token);
                    for holder in chunk {
                        query = query.bind(holder);
                    }
                    for row in query.fetch_all(&self.pool).await? {
                        found.push(holder_from_row(&row)?);
                    }
                }
                Ok(found)
            }

            async fn holder_index_apply(
                &self,
                chain: &str,
                token: &str,
                expected_next: Option<i64>,
                state: &$crate::store::LogIndexState,
                balances: &[$crate::store::HolderBalance],
            ) -> Result<bool, $crate::store::StoreError> {
                let mut tx = self.writer.begin().await?;
                if !claim_log_index(&mut tx, chain, $crate::store::LogIndexKind::Holders, token, expected_next, state).await? {
                    tx.rollback().await?;
                    return Ok(false);
                }
                for b in balances {
                    sqlx::query(
                        "INSERT INTO holder_balances (chain, token, holder, balance, sort_key) VALUES ($1, $2, $3, $4, $5) \
                         ON CONFLICT (chain, token, holder) DO UPDATE SET balance = $4, sort_key = $5",
                    )
                    .bind(chain)
                    .bind(token)
                    .bind(&b.holder)
                    .bind(&b.balance)
                    .bind(b.sort_key)
                    .execute(&mut *tx)
                    .await?;
                }
                tx.commit().await?;
                Ok(true)
            }

            async fn holder_top(
                &self,
                chain: &str,
                token: &str,
                limit: i64,
            ) -> Result<Vec<$crate::store::HolderBalance>, $crate::store::StoreError> {
                let rows = sqlx::query(
                    "SELECT holder, balance, sort_key FROM holder_balances \
                     WHERE chain = $1 AND token = $2 AND sort_key > 0 ORDER BY sort_key DESC, holder LIMIT $3",
                )
                .bind(chain)
                .bind(token)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?;
                rows.iter().map(holder_from_row).collect()
            }

            async fn holder_count(&self, chain: &str, token: &str) -> Result<i64, $crate::store::StoreError> {
                use sqlx::Row;
                let row = sqlx::query(
                    "SELECT COUNT(*) AS n FROM holder_balances WHERE chain = $1 AND token = $2 AND sort_key > 0",
                )
                .bind(chain)
                .bind(token)
                .fetch_one(&self.pool)
                .await?;
                Ok(row.try_get("n")?)
            }

            async fn wallet_index_apply(
                &self,
                chain: &str,
                wallet: &str,
                expected_next: Option<i64>,
                state: &$crate::store::LogIndexState,
                contacts: &[$crate::store::WalletContact],
            ) -> Result<bool, $crate::store::StoreError> {
                let mut tx = self.writer.begin().await?;
                if !claim_log_index(&mut tx, chain, $crate::store::LogIndexKind::Wallet, wallet, expected_next, state).await? {
                    tx.rollback().await?;
                    return Ok(false);
                }
                for c in contacts {
                    sqlx::query(
                        "INSERT INTO wallet_contacts (chain, wallet, kind, token, spender) VALUES ($1, $2, $3, $4, $5) \
                         ON CONFLICT (chain, wallet, kind, token, spender) DO NOTHING",
                    )
                    .bind(chain)
                    .bind(wallet)
                    .bind(&c.kind)
                    .bind(&c.token)
                    .bind(&c.spender)
                    .execute(&mut *tx)
                    .await?;
                }
                tx.commit().await?;
                Ok(true)
            }

            async fn wallet_contacts(
                &self,
                chain: &str,
                wallet: &str,
            ) -> Result<Vec<$crate::store::WalletContact>, $crate::store::StoreError> {
                use sqlx::Row;
                let rows = sqlx::query(
                    "SELECT kind, token, spender FROM wallet_contacts WHERE chain = $1 AND wallet = $2 ORDER BY kind, token, spender",
                )
                .bind(chain)
                .bind(wallet)
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|r| {
                        Ok($crate::store::WalletContact {
                            kind: r.try_get("kind")?,
                            token: r.try_get("token")?,
                            spender: r.try_get("spender")?,
                        })
                    })
                    .collect()
            }

            async fn tracked_token_add(&self, t: &$crate::store::TrackedToken) -> Result<bool, $crate::store::StoreError> {
                let done = sqlx::query(
                    "INSERT INTO tracked_tokens (chain, token, source, first_seen_block, added_at, last_analysed_at) \
                     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (chain, token) DO NOTHING",
                )
                .bind(&t.chain)
                .bind(&t.token)
                .bind(&t.source)
                .bind(t.first_seen_block)
                .bind(t.added_at)
                .bind(t.last_analysed_at)
                .execute(&self.writer)
                .await?;
                Ok(done.rows_affected() == 1)
            }

            async fn tracked_tokens(&self, chain: Option<&str>) -> Result<Vec<$crate::store::TrackedToken>, $crate::store::StoreError> {
                use sqlx::Row;
                let rows = sqlx::query(
                    "SELECT chain, token, source, first_seen_block, added_at, last_analysed_at FROM tracked_tokens \
                     WHERE ($1 IS NULL OR chain = $1) ORDER BY chain, token",
                )
                .bind(chain)
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|r| {
                        Ok($crate::store::TrackedToken {
                            chain: r.try_get("chain")?,
                            token: r.try_get("token")?,
                            source: r.try_get("source")?,
                            first_seen_block: r.try_get("first_seen_block")?,
                            added_at: r.try_get("added_at")?,
                            last_analysed_at: r.try_get("last_analysed_at")?,
                        })
                    })
                    .collect()
            }

            async fn tracked_token_analysed(&self, chain: &str, token: &str, at: chrono::DateTime<chrono::Utc>) -> Result<(), $crate::store::StoreError> {
                sqlx::query("UPDATE tracked_tokens SET last_analysed_at = $1 WHERE chain = $2 AND token = $3")
                    .bind(at)
                    .bind(chain)
                    .bind(token)
                    .execute(&self.writer)
                    .await?;
                Ok(())
            }

            async fn tracked_pair_add(&self, p: &$crate::store::TrackedPair) -> Result<(), $crate::store::StoreError> {
                sqlx::query(
                    "INSERT INTO tracked_pairs (chain, pair, token, quote, dex, reserve_quote) VALUES ($1, $2, $3, $4, $5, $6) \
                     ON CONFLICT (chain, pair) DO UPDATE SET reserve_quote = $6 WHERE tracked_pairs.reserve_quote = 0",
                )
                .bind(&p.chain)
                .bind(&p.pair)
                .bind(&p.token)
                .bind(&p.quote)
                .bind(&p.dex)
                .bind(p.reserve_quote)
                .execute(&self.writer)
                .await?;
                Ok(())
            }

            async fn tracked_pairs(&self, chain: &str) -> Result<Vec<$crate::store::TrackedPair>, $crate::store::StoreError> {
                use sqlx::Row;
                let rows = sqlx::query("SELECT chain, pair, token, quote, dex, reserve_quote FROM tracked_pairs WHERE chain = $1 ORDER BY pair")
                    .bind(chain)
                    .fetch_all(&self.pool)
                    .await?;
                rows.iter()
                    .map(|r| {
                        Ok($crate::store::TrackedPair {
                            chain: r.try_get("chain")?,
                            pair: r.try_get("pair")?,
                            token: r.try_get("token")?,
                            quote: r.try_get("quote")?,
                            dex: r.try_get("dex")?,
                            reserve_quote: r.try_get("reserve_quote")?,
                        })
                    })
                    .collect()
            }

            async fn tracked_pair_reserve(&self, chain: &str, pair: &str, reserve_quote: f64) -> Result<(), $crate::store::StoreError> {
                sqlx::query("UPDATE tracked_pairs SET reserve_quote = $1 WHERE chain = $2 AND pair = $3")
                    .bind(reserve_quote)
                    .bind(chain)
                    .bind(pair)
                    .execute(&self.writer)
                    .await?;
                Ok(())
            }

            async fn cursor_get(&self, chain: &str, source: &str) -> Result<Option<(i64, String)>, $crate::store::StoreError> {
                use sqlx::Row;
                let row = sqlx::query("SELECT next_block, last_hash FROM index_cursors WHERE chain = $1 AND source = $2")
                    .bind(chain)
                    .bind(source)
                    .fetch_optional(&self.pool)
                    .await?;
                row.map(|r| Ok((r.try_get("next_block")?, r.try_get("last_hash")?))).transpose()
            }

            async fn cursor_advance(
                &self,
                chain: &str,
                source: &str,
                expected_next: Option<i64>,
                next: i64,
                last_hash: &str,
                swaps: &[$crate::store::SwapRow],
                syncs: &[$crate::store::SyncRow],
            ) -> Result<bool, $crate::store::StoreError> {
                let mut tx = self.writer.begin().await?;
                let claimed = match expected_next {
                    None => sqlx::query(
                        "INSERT INTO index_cursors (chain, source, next_block, last_hash) VALUES ($1, $2, $3, $4) \
                         ON CONFLICT (chain, source) DO NOTHING",
                    )
                    .bind(chain)
                    .bind(source)
                    .bind(next)
                    .bind(last_hash)
                    .execute(&mut *tx)
                    .await?,
                    Some(expected) => sqlx::query(
                        "UPDATE index_cursors SET next_block = $1, last_hash = $2 WHERE chain = $3 AND source = $4 AND next_block = $5",
                    )
                    .bind(next)
                    .bind(last_hash)
                    .bind(chain)
                    .bind(source)
                    .bind(expected)
                    .execute(&mut *tx)
                    .await?,
                };
                if claimed.rows_affected() != 1 {
                    tx.rollback().await?;
                    return Ok(false);
                }
                for w in swaps {
                    sqlx::query(
                        "INSERT INTO swaps (chain, pair, block, log_index, token, trader, side, amount_token, amount_usd, price_usd, observed_at) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (chain, pair, block, log_index) DO NOTHING",
                    )
                    .bind(&w.chain)
                    .bind(&w.pair)
                    .bind(w.block)
                    .bind(w.log_index)
                    .bind(&w.token)
                    .bind(&w.trader)
                    .bind(&w.side)
                    .bind(w.amount_token)
                    .bind(w.amount_usd)
                    .bind(w.price_usd)
                    .bind(w.observed_at)
                    .execute(&mut *tx)
                    .await?;
                }
                for y in syncs {
                    sqlx::query(
                        "INSERT INTO liquidity_history (chain, pair, block, log_index, reserve_quote, observed_at) \
                         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (chain, pair, block, log_index) DO NOTHING",
                    )
                    .bind(&y.chain)
                    .bind(&y.pair)
                    .bind(y.block)
                    .bind(y.log_index)
                    .bind(y.reserve_quote)
                    .bind(y.observed_at)
                    .execute(&mut *tx)
                    .await?;
                }
                tx.commit().await?;
                Ok(true)
            }

            async fn liquidity_history(
                &self,
                chain: &str,
                pair: &str,
                since: chrono::DateTime<chrono::Utc>,
            ) -> Result<Vec<$crate::store::SyncRow>, $crate::store::StoreError> {
                use sqlx::Row;
                let rows = sqlx::query(
                    "SELECT chain, pair, block, log_index, reserve_quote, observed_at FROM liquidity_history \
                     WHERE chain = $1 AND pair = $2 AND observed_at >= $3 ORDER BY block, log_index",
                )
                .bind(chain)
                .bind(pair)
                .bind(since)
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|r| {
                        Ok($crate::store::SyncRow {
                            chain: r.try_get("chain")?,
                            pair: r.try_get("pair")?,
                            block: r.try_get("block")?,
                            log_index: r.try_get("log_index")?,
                            reserve_quote: r.try_get("reserve_quote")?,
                            observed_at: r.try_get("observed_at")?,
                        })
                    })
                    .collect()
            }

            async fn cursor_rewind(&self, chain: &str, source: &str, block: i64) -> Result<(), $crate::store::StoreError> {
                let mut tx = self.writer.begin().await?;
                sqlx::query("UPDATE index_cursors SET next_block = $1, last_hash = '' WHERE chain = $2 AND source = $3 AND next_block > $1")
                    .bind(block)
                    .bind(chain)
                    .bind(source)
                    .execute(&mut *tx)
                    .await?;
                for table in ["swaps", "liquidity_history"] {
                    // The table name is one of two constants; values are bound.
                    sqlx::query(&format!("DELETE FROM {table} WHERE chain = $1 AND block >= $2"))
                        .bind(chain)
                        .bind(block)
                        .execute(&mut *tx)
                        .await?;
                }
                tx.commit().await?;
                Ok(())
            }

            async fn swaps_since(
                &self,
                chain: &str,
                token: &str,
                since: chrono::DateTime<chrono::Utc>,
            ) -> Result<Vec<$crate::store::SwapRow>, $crate::store::StoreError> {
                use sqlx::Row;
                let rows = sqlx::query(
                    "SELECT chain, pair, block, log_index, token, trader, side, amount_token, amount_usd, price_usd, observed_at \
                     FROM swaps WHERE chain = $1 AND token = $2 AND observed_at >= $3 ORDER BY block, log_index",
                )
                .bind(chain)
                .bind(token)
                .bind(since)
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|r| {
                        Ok($crate::store::SwapRow {
                            chain: r.try_get("chain")?,
                            pair: r.try_get("pair")?,
                            block: r.try_get("block")?,
                            log_index: r.try_get("log_index")?,
                            token: r.try_get("token")?,
                            trader: r.try_get("trader")?,
                            side: r.try_get("side")?,
                            amount_token: r.try_get("amount_token")?,
                            amount_usd: r.try_get("amount_usd")?,
                            price_usd: r.try_get("price_usd")?,
                            observed_at: r.try_get("observed_at")?,
                        })
                    })
                    .collect()
            }

            async fn alert_insert(&self, a: &$crate::store::AlertRow) -> Result<Option<i64>, $crate::store::StoreError> {
                use sqlx::Row;
                let row = sqlx::query(
                    "INSERT INTO alerts (event_key, chain, token, kind, severity, severity_rank, title, detail, score_before, \
                     label_before, score_after, label_after, block, observed_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) \
                     ON CONFLICT (event_key) DO NOTHING RETURNING id",
                )
                .bind(&a.event_key)
                .bind(&a.chain)
                .bind(&a.token)
                .bind(&a.kind)
                .bind(&a.severity)
                .bind(a.severity_rank)
                .bind(&a.title)
                .bind(&a.detail)
                .bind(a.score_before)
                .bind(&a.label_before)
                .bind(a.score_after)
                .bind(&a.label_after)
                .bind(a.block)
                .bind(a.observed_at)
                .fetch_optional(&self.writer)
                .await?;
                row.map(|r| r.try_get("id").map_err(Into::into)).transpose()
            }

            async fn alerts(&self, q: &$crate::store::AlertQuery) -> Result<Vec<$crate::store::AlertRow>, $crate::store::StoreError> {
                use sqlx::Row;
                let rows = sqlx::query(
                    "SELECT id, event_key, chain, token, kind, severity, severity_rank, title, detail, score_before, label_before, \
                     score_after, label_after, block, observed_at FROM alerts \
                     WHERE ($1 IS NULL OR chain = $1) AND severity_rank >= $2 AND ($3 IS NULL OR kind = $3) \
                     AND ($4 IS NULL OR observed_at >= $4) AND ($5 IS NULL OR id < $5) ORDER BY id DESC LIMIT $6",
                )
                .bind(&q.chain)
                .bind(q.min_rank)
                .bind(&q.kind)
                .bind(q.since)
                .bind(q.before_id)
                .bind(q.limit)
                .fetch_all(&self.pool)
                .await?;
                rows.iter()
                    .map(|r| {
                        Ok($crate::store::AlertRow {
                            id: r.try_get("id")?,
                            event_key: r.try_get("event_key")?,
                            chain: r.try_get("chain")?,
                            token: r.try_get("token")?,
                            kind: r.try_get("kind")?,
                            severity: r.try_get("severity")?,
                            severity_rank: r.try_get("severity_rank")?,
                            title: r.try_get("title")?,
                            detail: r.try_get("detail")?,
                            score_before: r.try_get("score_before")?,
                            label_before: r.try_get("label_before")?,
                            score_after: r.try_get("score_after")?,
                            label_after: r.try_get("label_after")?,
                            block: r.try_get("block")?,
                            observed_at: r.try_get("observed_at")?,
                        })
                    })
                    .collect()
            }

            async fn usage_set(
                &self,
                account_id: &str,
                period_start: chrono::DateTime<chrono::Utc>,
                requests: i64,
            ) -> Result<(), $crate::store::StoreError> {
                sqlx::query(
                    "INSERT INTO monthly_usage (account_id, period_start, requests) VALUES ($1, $2, $3) \
                     ON CONFLICT (account_id, period_start) DO UPDATE SET requests = $3",
                )
                .bind(account_id)
                .bind(period_start)
                .bind(requests)
                .execute(&self.writer)
                .await?;
                Ok(())
            }
        }
    };
}

pub(crate) use impl_sql_store;
