package com.example.identity.keys;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;

import com.example.identity.IdentityProperties;
import com.example.identity.crypto.NativeRsaSignatures;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;

/** The key beans of the authorization server, read from {@link SigningKeys} on every use (keys rotate). */
@Configuration(proxyBeanMethods = false)
class KeysConfig {

    private static final Logger log = LoggerFactory.getLogger(KeysConfig.class);

    /** Published at {@code /oauth/jwks.json}: the public part of every key that may verify a live id_token. */
    @Bean
    JWKSource<SecurityContext> jwkSource(SigningKeys keys) {
        return (selector, context) -> selector.select(keys.keys());
    }

    /**
     * Signs with the current key only, so the encoder never has to choose among several; the RS256 signature
     * itself is native where it can be ({@link NativeRsaSignatures}).
     */
    @Bean
    JwtEncoder jwtEncoder(SigningKeys keys, IdentityProperties properties) {
        log.info("RS256 signatures by {}", NativeRsaSignatures.install(properties.signingKey().nativeSignatures()));
        return new NimbusJwtEncoder((selector, context) -> {
            RSAKey signing = keys.signingKey();
            return selector.select(signing == null ? new JWKSet() : new JWKSet(signing));
        });
    }
}
