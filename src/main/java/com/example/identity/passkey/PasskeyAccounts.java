package com.example.identity.passkey;

import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.account.AccountDeleting;
import com.example.identity.account.AddressChanged;

/**
 * Spring Security's WebAuthn tables ({@code user_entities}, {@code user_credentials}) follow the account they are
 * keyed by, through its login name: its passkeys go with it when it is deleted, and its user entity takes its new
 * address when that changes (account/'s events, in their transactions; passkey/ alone names these tables).
 */
@Component
class PasskeyAccounts {

    private final JdbcTemplate jdbc;

    PasskeyAccounts(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventListener
    void onAccountDeleting(AccountDeleting event) {
        if (event.correo() == null) {
            return; // a guest has no address, so no passkey
        }
        jdbc.update("delete from user_credentials where user_entity_user_id in "
                + "(select id from user_entities where name = ?)", event.correo());
        jdbc.update("delete from user_entities where name = ?", event.correo());
    }

    @EventListener
    void onAddressChanged(AddressChanged event) {
        jdbc.update("update user_entities set name = ?, display_name = ? where name = ?", event.correo(), event.correo(),
                event.old());
    }
}
