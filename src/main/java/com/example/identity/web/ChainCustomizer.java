package com.example.identity.web;

import org.springframework.security.config.annotation.web.builders.HttpSecurity;

/**
 * One piece of a security filter chain (an endpoint's converters, providers, filters and answers), applied by the
 * chain that lists it, in the order it lists them: {@code oauth/AuthorizationServerConfig} applies one per endpoint.
 * Not a {@code Customizer<HttpSecurity>}: Spring Security applies every bean of that type to every chain.
 */
public interface ChainCustomizer {

    void customize(HttpSecurity http) throws Exception;
}
