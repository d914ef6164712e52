-- Issue 28 (decisions §20): the ids of deleted accounts, never given again. The identity column does not
-- reuse a value by itself (H2 and PostgreSQL both take the next one of a sequence), but the import of the
-- previous system writes ids of its own (migration/UserImport): it refuses the ids listed here.
create table deleted_users (
    id         bigint not null primary key,
    deleted_at timestamp with time zone not null
);
