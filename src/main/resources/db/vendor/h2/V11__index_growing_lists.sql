-- Indexes for the lists that grow (the admin page, /api/tokens/list.php, /api/clients/list.php): pages
-- newest first, for everyone (admins) and per owner. H2's version of db/vendor/postgresql's, whose
-- substring-search (pg_trgm) indexes H2 does not have: on the embedded database a search scans.
create index ix_api_tokens_created on api_tokens (created_at, id);
create index ix_api_tokens_user_created on api_tokens (user_id, created_at, id);
create index ix_oauth_clients_created on oauth_clients (created_at, id);
create index ix_oauth_clients_owner_created on oauth_clients (owner_id, created_at, id);
