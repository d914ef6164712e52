package com.example.identity.support;

import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.webauthn4j.data.AttestationConveyancePreference;
import com.webauthn4j.data.AuthenticatorSelectionCriteria;
import com.webauthn4j.data.PublicKeyCredentialCreationOptions;
import com.webauthn4j.data.PublicKeyCredentialDescriptor;
import com.webauthn4j.data.PublicKeyCredentialParameters;
import com.webauthn4j.data.PublicKeyCredentialRequestOptions;
import com.webauthn4j.data.PublicKeyCredentialRpEntity;
import com.webauthn4j.data.PublicKeyCredentialType;
import com.webauthn4j.data.PublicKeyCredentialUserEntity;
import com.webauthn4j.data.ResidentKeyRequirement;
import com.webauthn4j.data.UserVerificationRequirement;
import com.webauthn4j.data.attestation.statement.COSEAlgorithmIdentifier;
import com.webauthn4j.data.client.Origin;
import com.webauthn4j.data.client.challenge.DefaultChallenge;
import com.webauthn4j.test.authenticator.webauthn.NoneAttestationAuthenticator;
import com.webauthn4j.test.authenticator.webauthn.WebAuthnAuthenticatorAdaptor;
import com.webauthn4j.test.client.ClientPlatform;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A passkey without a browser: webauthn4j's emulators of a browser ({@link ClientPlatform}: clientDataJSON with
 * the type, challenge and origin) and of an authenticator that keeps its credentials (discoverable, with user
 * verification, "none" attestation, ES256), driven with the JSON Spring Security's endpoints give and take, as
 * the page's script ({@code static/js/passkeys.js}) does with {@code navigator.credentials}. One instance is one
 * device: it remembers the passkeys it made and signs with them.
 */
public final class SoftwarePasskey {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder FROM_BASE64URL = Base64.getUrlDecoder();

    private final WebAuthnAuthenticatorAdaptor device;
    private final ClientPlatform client;

    /** A device used from {@code origin} (the page's origin: the issuer's, which the relying party allows). */
    public SoftwarePasskey(String origin) {
        this(new WebAuthnAuthenticatorAdaptor(new NoneAttestationAuthenticator()), origin);
    }

    private SoftwarePasskey(WebAuthnAuthenticatorAdaptor device, String origin) {
        this.device = device;
        this.client = new ClientPlatform(new Origin(origin), device);
    }

    /** The same device (its passkeys) used from a page at another origin. */
    public SoftwarePasskey from(String origin) {
        return new SoftwarePasskey(device, origin);
    }

    /**
     * {@code navigator.credentials.create} with the options of {@code POST /webauthn/register/options}: the body
     * the page posts to {@code POST /webauthn/register}, naming the passkey {@code label}.
     */
    public String register(String creationOptionsJson, String label) {
        JsonNode options = JSON.readTree(creationOptionsJson);
        JsonNode rp = options.get("rp");
        JsonNode user = options.get("user");
        // the authenticator picks ES256 from the algorithms the relying party accepts, as a platform one does
        List<PublicKeyCredentialParameters> algorithms = new ArrayList<>();
        for (JsonNode parameter : options.get("pubKeyCredParams")) {
            if (parameter.get("alg").asLong() == COSEAlgorithmIdentifier.ES256.getValue()) {
                algorithms.add(new PublicKeyCredentialParameters(PublicKeyCredentialType.PUBLIC_KEY,
                        COSEAlgorithmIdentifier.ES256));
            }
        }
        if (algorithms.isEmpty()) {
            throw new IllegalArgumentException("ES256 not offered: " + creationOptionsJson);
        }
        JsonNode selection = options.get("authenticatorSelection");
        var creation = new PublicKeyCredentialCreationOptions(
                new PublicKeyCredentialRpEntity(rp.get("id").asString(), rp.get("name").asString()),
                new PublicKeyCredentialUserEntity(FROM_BASE64URL.decode(user.get("id").asString()),
                        user.get("name").asString(), user.get("displayName").asString()),
                new DefaultChallenge(FROM_BASE64URL.decode(options.get("challenge").asString())),
                algorithms, options.get("timeout").asLong(), descriptors(options.get("excludeCredentials")),
                new AuthenticatorSelectionCriteria(null,
                        ResidentKeyRequirement.create(selection.get("residentKey").asString()),
                        UserVerificationRequirement.create(selection.get("userVerification").asString())),
                AttestationConveyancePreference.NONE, null);
        var credential = client.create(creation);
        var answer = credential.getResponse();
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("attestationObject", BASE64URL.encodeToString(answer.getAttestationObject()));
        response.put("clientDataJSON", BASE64URL.encodeToString(answer.getClientDataJSON()));
        response.put("transports", List.of("internal"));
        Map<String, Object> publicKey = new LinkedHashMap<>();
        publicKey.put("id", BASE64URL.encodeToString(credential.getRawId()));
        publicKey.put("rawId", BASE64URL.encodeToString(credential.getRawId()));
        publicKey.put("response", response);
        publicKey.put("type", "public-key");
        publicKey.put("clientExtensionResults", Map.of());
        publicKey.put("authenticatorAttachment", "platform");
        return JSON.writeValueAsString(Map.of("publicKey", Map.of("credential", publicKey, "label", label)));
    }

    /**
     * {@code navigator.credentials.get} with the options of {@code POST /webauthn/authenticate/options}: the body
     * the page posts to {@code POST /login/webauthn} (a discoverable passkey of this device for the options' rpId,
     * signed with user verification).
     */
    public String authenticate(String requestOptionsJson) {
        JsonNode options = JSON.readTree(requestOptionsJson);
        var request = new PublicKeyCredentialRequestOptions(
                new DefaultChallenge(FROM_BASE64URL.decode(options.get("challenge").asString())),
                options.get("timeout").asLong(), options.get("rpId").asString(),
                descriptors(options.get("allowCredentials")),
                UserVerificationRequirement.create(options.get("userVerification").asString()), null);
        var credential = client.get(request);
        var answer = credential.getResponse();
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("authenticatorData", BASE64URL.encodeToString(answer.getAuthenticatorData()));
        response.put("clientDataJSON", BASE64URL.encodeToString(answer.getClientDataJSON()));
        response.put("signature", BASE64URL.encodeToString(answer.getSignature()));
        response.put("userHandle", BASE64URL.encodeToString(answer.getUserHandle()));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", BASE64URL.encodeToString(credential.getRawId()));
        body.put("rawId", BASE64URL.encodeToString(credential.getRawId()));
        body.put("response", response);
        body.put("credType", "public-key");
        body.put("clientExtensionResults", Map.of());
        body.put("authenticatorAttachment", "platform");
        return JSON.writeValueAsString(body);
    }

    private static List<PublicKeyCredentialDescriptor> descriptors(JsonNode list) {
        List<PublicKeyCredentialDescriptor> descriptors = new ArrayList<>();
        if (list != null) {
            for (JsonNode descriptor : list) {
                descriptors.add(new PublicKeyCredentialDescriptor(PublicKeyCredentialType.PUBLIC_KEY,
                        FROM_BASE64URL.decode(descriptor.get("id").asString()), null));
            }
        }
        return descriptors;
    }
}
