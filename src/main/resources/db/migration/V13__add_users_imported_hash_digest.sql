-- Accounts imported from the system this service replaces (migration/LegacyImport): the SHA-256 of the
-- password hash as imported, so that a later re-import can tell "the same password, rehashed at a login
-- since" (digest equal, stored hash left alone) from "a password changed in the old system" (digest
-- differs). Null for accounts made by this service: an import never overwrites them.
alter table users add column imported_hash_digest varchar(64);
