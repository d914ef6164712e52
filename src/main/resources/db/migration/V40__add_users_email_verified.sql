-- Whether the person proved the account's address (decisions §18): a confirmed sign-up, a confirmed e-mail
-- change, a completed recovery, a federated login whose provider asserts it, or the import's
-- correo_verificado. Accounts made by an admin start false.
alter table users add column email_verified boolean default false not null;
