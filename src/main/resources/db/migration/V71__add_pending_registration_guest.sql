-- A sign-up that keeps a guest's progress (decisions §24): the guest account the confirmation link converts
-- instead of creating a new one (registration/Registrations). Null for every other sign-up. No foreign key: the
-- row is the sign-up's (the address typed, purged when it expires, like every sign-up), not the guest's; a guest
-- deleted or converted meanwhile makes its link one that no longer works (guest/Guests answers that it is no guest),
-- and a deleted account's id is never given again (deleted_users).
alter table pending_registrations add column guest_id bigint;
