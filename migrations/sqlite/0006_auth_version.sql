-- The auth version: bumped by every change to a key (other than its last
-- use) or to an account's plan, whoever makes it (any instance, the CLI),
-- so each instance's key cache knows when to forget what it holds.
CREATE TABLE auth_version (
    id BIGINT PRIMARY KEY NOT NULL,
    version BIGINT NOT NULL
);
INSERT INTO auth_version (id, version) VALUES (1, 0);

CREATE TRIGGER api_keys_added AFTER INSERT ON api_keys
BEGIN
    UPDATE auth_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER api_keys_removed AFTER DELETE ON api_keys
BEGIN
    UPDATE auth_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER api_keys_changed
AFTER UPDATE OF scopes, secret_hash, previous_secret_hash, previous_valid_until, expires_at, revoked_at, account_id
ON api_keys
BEGIN
    UPDATE auth_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER accounts_changed AFTER UPDATE OF plan ON accounts
BEGIN
    UPDATE auth_version SET version = version + 1 WHERE id = 1;
END;
