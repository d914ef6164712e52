package com.example.identity.federation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;

import org.junit.jupiter.api.Test;

/** The claimed identifiers an endpoint may assert (derived from {@code identity.steam.endpoint}), and the key-value form. */
class SteamSettingsTest {

    @Test
    void steamsOwnEndpointAcceptsExactlySteamsClaimedIdentifiers() {
        var steam = new SteamSettings(true, URI.create("https://steamcommunity.com/openid/login"));
        assertThat(steam.claimedId().pattern())
                .isEqualTo("^https?://\\Qsteamcommunity.com/openid/id/\\E(\\d{17})$");
        var m = steam.claimedId().matcher("https://steamcommunity.com/openid/id/76561197960287930");
        assertThat(m.matches()).isTrue();
        assertThat(m.group(1)).isEqualTo("76561197960287930");
        assertThat(steam.claimedId().matcher("http://steamcommunity.com/openid/id/76561197960287930").matches()).isTrue();
        for (String refused : new String[] { "https://steamcommunity.com/openid/id/7656119796028793",
                "https://steamcommunity.com/openid/id/765611979602879300", "https://steamcommunityXcom/openid/id/76561197960287930",
                "https://evil.example/openid/id/76561197960287930", "https://steamcommunity.com.evil.example/openid/id/76561197960287930",
                "https://steamcommunity.com/openid/id/76561197960287930/", "https://steamcommunity.com/openid/id/76561197960287930?x",
                "ftp://steamcommunity.com/openid/id/76561197960287930" }) {
            assertThat(steam.claimedId().matcher(refused).matches()).as(refused).isFalse();
        }
    }

    @Test
    void aLocalEndpointAcceptsItsOwnHostPortAndPath() {
        var fake = new SteamSettings(true, URI.create("http://127.0.0.1:9000/openid/login"));
        assertThat(fake.claimedId().matcher("http://127.0.0.1:9000/openid/id/76561197960287930").matches()).isTrue();
        assertThat(fake.claimedId().matcher("http://127.0.0.1:9001/openid/id/76561197960287930").matches()).isFalse();
        assertThat(fake.claimedId().matcher("https://steamcommunity.com/openid/id/76561197960287930").matches()).isFalse();
    }

    @Test
    void anEndpointThatIsNotAnHttpUrlWithoutQueryIsRefusedAtStart() {
        assertThatThrownBy(() -> new SteamSettings(true, URI.create("ftp://steamcommunity.com/openid/login")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SteamSettings(true, URI.create("https://steamcommunity.com/openid/login?x=1")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void keyValueFormIsReadLineByLineAndTheFirstKeyWins() {
        var fields = SteamAssertions.keyValues("ns:http://specs.openid.net/auth/2.0\nis_valid:true\nis_valid:false\nnoise\n");
        assertThat(fields).containsEntry("ns", "http://specs.openid.net/auth/2.0").containsEntry("is_valid", "true")
                .hasSize(2);
    }
}
