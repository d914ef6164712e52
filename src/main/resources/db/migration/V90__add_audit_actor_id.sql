-- The account an audit line's actor was when the line was written (issue 39.6): the data download selects a
-- person's lines by this id, never by the address, which a later account may hold. Lines written before this
-- migration get the id of the account that holds the actor's address now and already held it then (created
-- no later than the line): a line older than that account belongs to whoever held the address before.
alter table audit_events add column actor_id bigint;
update audit_events set actor_id = (select u.id from users u where u.correo = audit_events.actor
    and u.created_at <= audit_events.occurred_at) where actor is not null;
create index ix_audit_events_actor_id on audit_events (actor_id);
