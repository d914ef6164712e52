package com.example.identity.leaving;

import java.util.Map;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.oauth2.client.authentication.OAuth2AuthenticationToken;
import org.springframework.security.oauth2.core.oidc.user.OidcUser;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * A web site that logs people in with this service, as a Spring Boot application would: Spring Security's
 * {@code oauth2Login()} against the issuer's discovery document, and {@code oidcLogout().backChannel()}, which ends
 * the site's own session when a logout token for it arrives at {@code /logout/connect/back-channel/idp}. Its own
 * context on its own port, only the web, security and OAuth client auto-configurations (no database). Its page
 * {@code /} says who is logged in and the id_token's {@code sid}.
 */
final class RelyingParty {

    private RelyingParty() {
    }

    static ConfigurableApplicationContext start(int port, String issuer, String clientId, String clientSecret) {
        String registration = "spring.security.oauth2.client.registration.idp.";
        Map<String, Object> properties = Map.of(
                "spring.config.name", "relying-party-none",
                "server.port", port,
                "server.address", "127.0.0.1",
                "spring.main.banner-mode", "off",
                registration + "client-id", clientId,
                registration + "client-secret", clientSecret,
                registration + "scope", "openid",
                registration + "redirect-uri", "{baseUrl}/login/oauth2/code/{registrationId}",
                "spring.security.oauth2.client.provider.idp.issuer-uri", issuer);
        return new SpringApplicationBuilder(Site.class).web(WebApplicationType.SERVLET).properties(properties).run();
    }

    /** Not a {@code @Configuration}: the service's own component scan (this package is under it) must not find it. */
    @ImportAutoConfiguration({
            org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration.class,
            org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration.class,
            org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration.class,
            org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration.class,
            org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration.class,
            org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration.class,
            org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration.class,
            org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration.class,
            org.springframework.boot.security.oauth2.client.autoconfigure.OAuth2ClientAutoConfiguration.class })
    static class Site {

        @Bean
        SecurityFilterChain site(HttpSecurity http) throws Exception {
            http.authorizeHttpRequests(authorize -> authorize.anyRequest().authenticated())
                    .oauth2Login(Customizer.withDefaults())
                    .oidcLogout(logout -> logout.backChannel(Customizer.withDefaults()));
            return http.build();
        }

        @Bean
        RouterFunction<ServerResponse> page() {
            return RouterFunctions.route().GET("/", request -> {
                var user = (OidcUser) ((OAuth2AuthenticationToken) request.principal().orElseThrow()).getPrincipal();
                return ServerResponse.ok().body("hola " + user.getSubject() + " sid=" + user.getIdToken().getClaimAsString("sid"));
            }).build();
        }
    }
}
