-- A sign-up that keeps a guest's progress (decisions §24): the guest account the confirmation link converts
-- instead of creating a new one (registration/Registrations). Null for every other sign-up. A foreign key to
-- users: the deletion of that guest (decisions §20) removes the waiting sign-up with it.
alter table pending_registrations add column guest_id bigint references users (id);
