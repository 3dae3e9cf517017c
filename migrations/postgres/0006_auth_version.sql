-- The auth version: bumped by every change to a key (other than its last
-- use) or to an account's plan, whoever makes it (any instance, the CLI),
-- so each instance's key cache knows when to forget what it holds. The
-- change is also announced on the channel `riskintel_auth` (LISTEN/NOTIFY).
CREATE TABLE auth_version (
    id BIGINT PRIMARY KEY NOT NULL,
    version BIGINT NOT NULL
);
INSERT INTO auth_version (id, version) VALUES (1, 0);

CREATE FUNCTION riskintel_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE auth_version SET version = version + 1 WHERE id = 1;
    PERFORM pg_notify('riskintel_auth', '');
    RETURN NULL;
END
$$;

CREATE TRIGGER api_keys_changed
AFTER INSERT OR DELETE
    OR UPDATE OF scopes, secret_hash, previous_secret_hash, previous_valid_until, expires_at, revoked_at, account_id
ON api_keys
FOR EACH STATEMENT EXECUTE FUNCTION riskintel_auth_changed();
CREATE TRIGGER accounts_changed AFTER UPDATE OF plan ON accounts
FOR EACH STATEMENT EXECUTE FUNCTION riskintel_auth_changed();
