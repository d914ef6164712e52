package com.example.identity.mfa;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import com.example.identity.account.Role;

/** {@code identity.mfa.required-roles} accepts exactly the roles there are (the start check is in IdentityPropertiesIT). */
class MfaSettingsTest {

    @Test
    void theAcceptedRolesAreEveryRoleAndNothingElse() {
        assertThat(MfaSettings.ROLES).isEqualTo(Arrays.stream(Role.values()).map(Role::value).collect(Collectors.joining("|")));
        for (Role role : Role.values()) {
            assertThat(MfaSettings.ROLES_MESSAGE).contains(role.value());
        }
    }
}
