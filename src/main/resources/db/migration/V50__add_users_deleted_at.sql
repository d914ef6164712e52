-- Deleted accounts (decisions §20, issue 31's admin API): the row stays as a tombstone so that its
-- numeric id is never given to anyone else and the applications it registered keep an owner; its
-- address, name and password are gone (account/AccountDeletion). Lists and admin actions skip it.
alter table users add column deleted_at timestamp with time zone;
