package com.example.identity.mfa;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import com.example.identity.account.Role;

/**
 * {@code identity.mfa.required-roles} accepts exactly the roles of the accounts that log in on a page, those an admin
 * gives (a guest player, decisions §24, never logs in on a page); the start check is in IdentityPropertiesIT.
 */
class MfaSettingsTest {

    @Test
    void theAcceptedRolesAreEveryRoleThatLogsInOnAPageAndNothingElse() {
        assertThat(MfaSettings.ROLES).isEqualTo(Role.ASSIGNABLE.stream().map(Role::value).collect(Collectors.joining("|")));
        for (Role role : Role.ASSIGNABLE) {
            assertThat(MfaSettings.ROLES_MESSAGE).contains(role.value());
        }
        assertThat(MfaSettings.ROLES_MESSAGE).doesNotContain(Role.INVITADO.value());
    }
}
