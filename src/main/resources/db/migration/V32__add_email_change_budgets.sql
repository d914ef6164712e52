-- Budgets of e-mail change requests (account/EmailChanges): per account and per new address an hour,
-- counted from email_changes.created_at while holding the 'email-changes' row of cluster_locks, so that
-- every instance counts the same rows and two requests cannot both take the last one.
insert into cluster_locks (name, version) values ('email-changes', 0);
create index ix_email_changes_user_created on email_changes (user_id, created_at);
create index ix_email_changes_address_created on email_changes (new_correo, created_at);
