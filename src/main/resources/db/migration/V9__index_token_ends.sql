-- The retention job deletes API tokens revoked or expired long ago (identity.retention.tokens): one
-- index per time column, so each hourly DELETE reads only what it removes.
create index ix_api_tokens_revoked_at on api_tokens (revoked_at);
create index ix_api_tokens_expires_at on api_tokens (expires_at);
