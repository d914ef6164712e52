package com.example.identity.passkey;

import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import com.example.identity.account.AddressChanged;

/**
 * Spring Security's WebAuthn tables ({@code user_entities}, {@code user_credentials}) follow the account they are
 * keyed by, through its login name: its user entity takes its new address when that changes (account/'s event, in
 * its transaction; the deletion is {@link PasskeyData#forget}; passkey/ alone names these tables).
 */
@Component
class PasskeyAccounts {

    private final JdbcTemplate jdbc;

    PasskeyAccounts(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventListener
    void onAddressChanged(AddressChanged event) {
        jdbc.update("update user_entities set name = ?, display_name = ? where name = ?", event.correo(), event.correo(),
                event.old());
    }
}
