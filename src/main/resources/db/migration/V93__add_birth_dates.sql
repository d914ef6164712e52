-- Birth dates (decisions §27, minors/). The date a sign-up typed (fecha_nacimiento, YYYY-MM-DD) waits with it in
-- pending_registrations until the link is used (registration/Registrations); then it is the account's row here.
-- An account without a row (made before this, by an admin, by the import, or a guest) is an adult (§27): nothing
-- to migrate. The ordinary deletion (account/AccountDeletion) removes the row through its foreign key to users.
alter table pending_registrations add column fecha_nacimiento date;
create table birth_dates (
    user_id          bigint not null primary key references users (id),
    fecha_nacimiento date   not null
);
