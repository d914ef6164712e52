-- Guest players (decisions §24, guest/Guests). One row per guest account while it is a guest: the application
-- it was made for, and when its tokens were last issued (its creation and every refresh; an access token lives
-- at most a day, so that is within a day of the last use): the retention job deletes guests idle longer than
-- identity.guests.max-idle (guest/IdleGuests) through the ordinary deletion (decisions §20), which also removes
-- this row (a foreign key to users). The row goes when the guest becomes a full account.
create table guests (
    user_id      bigint       not null primary key references users (id),
    client_id    varchar(100) not null,
    created_at   timestamp with time zone not null,
    last_used_at timestamp with time zone not null
);
create index ix_guests_last_used on guests (last_used_at);

-- The single-use codes of POST /api/invitados/convertir.php: {issuer}/registro?invitado=<code>, valid 10
-- minutes. Only the SHA-256 digest of the code (256 random bits) is stored; used_at marks it spent (the page
-- that opened it keeps the conversion in its session). Purged by the retention job a day after they expired.
create table guest_conversions (
    code_digest char(64)  not null primary key,
    user_id     bigint    not null references users (id),
    created_at  timestamp with time zone not null,
    expires_at  timestamp with time zone not null,
    used_at     timestamp with time zone
);
create index ix_guest_conversions_expiry on guest_conversions (expires_at);
