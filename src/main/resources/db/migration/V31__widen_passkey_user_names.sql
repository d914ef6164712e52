-- Passkeys (V27): a user entity's name (and its display name) is the account's e-mail address, which may
-- be 254 characters (users.correo); Spring Security's schema has varchar(100) and varchar(200), so an
-- account with a longer address could not register a passkey, nor change to such an address once it had
-- one. Widened in place on both vendors (PostgreSQL does not rewrite the table; the index stays).
alter table user_entities alter column name set data type varchar(254);
alter table user_entities alter column display_name set data type varchar(254);
