package com.example.identity.support;

import java.util.LinkedHashMap;
import java.util.Map;

import com.example.identity.client.ClientService;

/** Request bodies that relying parties send to the service, for tests to send (and then alter) as they are. */
public final class OAuthForms {

    private OAuthForms() {
    }

    /**
     * An authorization code exchange at {@code /oauth/token.php} with {@code client_secret_post}, in the
     * order a relying party sends it; a new modifiable map each call.
     */
    public static Map<String, String> codeExchange(String code, String redirectUri, String clientId, String clientSecret) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "authorization_code");
        form.put("code", code);
        form.put("redirect_uri", redirectUri);
        form.put("client_id", clientId);
        form.put("client_secret", clientSecret);
        return form;
    }

    /** {@link #codeExchange(String, String, String, String)} for a client registered in the test. */
    public static Map<String, String> codeExchange(ClientService.NewCredentials client, String code) {
        return codeExchange(code, client.redirectUri(), client.clientId(), client.clientSecret());
    }
}
