package com.example.identity.oidc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The {@code claims} parameter (OIDC Core §5.5): what is well formed, and what each well-formed request asks for. */
class RequestedClaimsTest {

    @Test
    void absentOrWellFormedValuesAreAccepted() {
        for (String claims : new String[] { null, "{}", "{\"id_token\":{}}", "{\"userinfo\":{\"email\":null}}",
                "{\"id_token\":{\"email\":{\"essential\":true}},\"userinfo\":{\"name\":{\"values\":[\"a\",1]}}}",
                "{\"id_token\":{\"sub\":{\"value\":\"user:7\"}}}", "{\"otro\":5}" }) {
            assertThat(RequestedClaims.isWellFormed(claims)).as(claims).isTrue();
        }
    }

    @Test
    void malformedValuesAreRefused() {
        for (String claims : new String[] { "", "no json", "[]", "\"id_token\"", "{\"id_token\":[]}",
                "{\"userinfo\":\"email\"}", "{\"id_token\":{\"email\":true}}",
                "{\"id_token\":{\"email\":{\"essential\":\"yes\"}}}", "{\"id_token\":{\"email\":{\"values\":\"a\"}}}",
                "{\"id_token\":{\"sub\":{\"value\":7}}}", "{\"id_token\":{\"acr\":{\"values\":[\"mfa\",2]}}}" }) {
            assertThat(RequestedClaims.isWellFormed(claims)).as(claims).isFalse();
        }
    }

    @Test
    void aValueLongerThan4096CharactersIsRefused() {
        String padded = "{\"id_token\":{\"email\":null}" + " ".repeat(RequestedClaims.MAX_LENGTH) + "}";
        assertThat(RequestedClaims.isWellFormed(padded)).isFalse();
        assertThat(RequestedClaims.idTokenClaims(padded)).isEmpty();
    }

    @Test
    void onlyKnownUserClaimsAreTakenEachFromItsOwnMember() {
        String claims = "{\"id_token\":{\"email\":null,\"nickname\":null,\"auth_time\":{\"essential\":true}},"
                + "\"userinfo\":{\"given_name\":null,\"email_verified\":null,\"picture\":null}}";
        assertThat(RequestedClaims.idTokenClaims(claims)).containsExactly("email");
        assertThat(RequestedClaims.userInfoClaims(claims)).containsExactlyInAnyOrder("given_name", "email_verified");
        assertThat(RequestedClaims.idTokenClaims(null)).isEmpty();
        assertThat(RequestedClaims.userInfoClaims("{\"userinfo\":[]}")).as("malformed").isEmpty();
    }

    @Test
    void claimsAskedForNeedTheConsentOfTheScopeThatUsuallyBringsThem() {
        assertThat(RequestedClaims.consentScopes("{\"userinfo\":{\"email_verified\":null}}")).containsExactly("email");
        assertThat(RequestedClaims.consentScopes("{\"id_token\":{\"given_name\":null}}")).containsExactly("profile");
        assertThat(RequestedClaims.consentScopes("{\"id_token\":{\"name\":null},\"userinfo\":{\"email\":null}}"))
                .containsExactly("email", "profile");
        assertThat(RequestedClaims.consentScopes("{\"id_token\":{\"auth_time\":null}}")).isEmpty();
        assertThat(RequestedClaims.consentScopes(null)).isEmpty();
    }

    @Test
    void aSubValueInTheIdTokenDemandsThatUser() {
        assertThat(RequestedClaims.requiredSubject("{\"id_token\":{\"sub\":{\"value\":\"user:7\"}}}")).isEqualTo("user:7");
        assertThat(RequestedClaims.requiredSubject("{\"userinfo\":{\"sub\":{\"value\":\"user:7\"}}}"))
                .as("only the id_token's").isNull();
        assertThat(RequestedClaims.requiredSubject("{\"id_token\":{\"sub\":{\"essential\":true}}}")).isNull();
        assertThat(RequestedClaims.requiredSubject("")).isNull();
    }

    @Test
    void acrWithMfaOrEssentialWithoutValuesDemandsASecondFactor() {
        assertThat(RequestedClaims.demandsSecondFactor("{\"id_token\":{\"acr\":{\"value\":\"mfa\"}}}")).isTrue();
        assertThat(RequestedClaims.demandsSecondFactor("{\"id_token\":{\"acr\":{\"values\":[\"pwd\",\"mfa\"]}}}")).isTrue();
        assertThat(RequestedClaims.demandsSecondFactor("{\"id_token\":{\"acr\":{\"essential\":true}}}")).isTrue();
        assertThat(RequestedClaims.demandsSecondFactor("{\"id_token\":{\"acr\":{\"essential\":false}}}")).isFalse();
        assertThat(RequestedClaims.demandsSecondFactor("{\"id_token\":{\"acr\":null}}")).isFalse();
        assertThat(RequestedClaims.demandsSecondFactor("{\"id_token\":{\"acr\":{\"values\":[\"pwd\"]}}}")).isFalse();
        assertThat(RequestedClaims.demandsSecondFactor("{\"userinfo\":{\"acr\":{\"value\":\"mfa\"}}}")).isFalse();
    }

    @Test
    void anEssentialAcrWithOnlyValuesNeverServedCannotBeMet() {
        assertThat(RequestedClaims.demandsUnknownAcr(
                "{\"id_token\":{\"acr\":{\"essential\":true,\"values\":[\"urn:loa:3\"]}}}")).isTrue();
        assertThat(RequestedClaims.demandsUnknownAcr(
                "{\"id_token\":{\"acr\":{\"essential\":true,\"values\":[\"urn:loa:3\",\"mfa\"]}}}")).isFalse();
        assertThat(RequestedClaims.demandsUnknownAcr("{\"id_token\":{\"acr\":{\"values\":[\"urn:loa:3\"]}}}"))
                .as("voluntary").isFalse();
        assertThat(RequestedClaims.demandsUnknownAcr("{\"id_token\":{\"acr\":{\"essential\":true}}}")).isFalse();
    }
}
