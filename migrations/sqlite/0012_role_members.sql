-- AccessControl role members of a token, from its RoleGranted and
-- RoleRevoked logs, read by the holder index in the same scan as its
-- Transfer logs (a role held by an address that never moved a token is
-- still a role). `granted` is the last event seen for the pair.
CREATE TABLE role_members (
    chain TEXT NOT NULL,
    token TEXT NOT NULL,
    role TEXT NOT NULL,
    member TEXT NOT NULL,
    granted BOOLEAN NOT NULL,
    PRIMARY KEY (chain, token, role, member)
);

-- Holder indexes read before role events were indexed start again, so
-- their grants are read too (each is rebuilt on its token's next analysis,
-- within the configured look-back).
DELETE FROM holder_balances;
DELETE FROM log_indexes WHERE kind = 'holders';
