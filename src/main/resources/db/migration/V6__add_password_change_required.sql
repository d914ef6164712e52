-- Accounts created by an admin get a one-time password that must be changed at first login.
alter table users add column password_change_required boolean default false not null;
