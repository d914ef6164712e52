package com.example.identity.abuse;

import java.util.List;

import org.apache.catalina.Valve;
import org.apache.catalina.valves.RemoteIpValve;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

import com.example.identity.IdentityProperties;

/**
 * Makes {@code identity.trusted-proxies} the only list of proxies whose forwarding headers Tomcat believes,
 * so that {@link jakarta.servlet.http.HttpServletRequest#getRemoteAddr()}, {@code isSecure()} and the
 * scheme are the real client's only when the request came through one of them.
 *
 * <p>Spring Boot's {@code server.forward-headers-strategy: native} installs Tomcat's {@code RemoteIpValve}
 * trusting every private and loopback address (its default {@code internalProxies}); anyone on the same
 * network, or any process on the same host, could then pick its own address by sending
 * {@code X-Forwarded-For}. This customizer runs after Boot's and sets every {@code RemoteIpValve} of the
 * engine to the CIDR blocks of the setting (Tomcat matches them with its {@code NetMaskSet}), with no
 * "trusted proxies" besides them; with an empty setting no peer is trusted and the headers are ignored.
 * When the strategy is off and proxies are listed, it installs the valve itself.
 */
@Configuration(proxyBeanMethods = false)
class TrustedProxies {

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> trustedProxiesCustomizer(IdentityProperties properties) {
        List<String> blocks = properties.trustedProxyBlocks();
        return new Customizer(String.join(",", blocks));
    }

    /** Ordered after Spring Boot's own Tomcat customizer, which adds the valve. */
    static final class Customizer implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

        private final String internalProxies;

        Customizer(String internalProxies) {
            this.internalProxies = internalProxies;
        }

        @Override
        public void customize(TomcatServletWebServerFactory factory) {
            boolean present = false;
            for (Valve valve : factory.getEngineValves()) {
                if (valve instanceof RemoteIpValve remoteIp) {
                    configure(remoteIp);
                    present = true;
                }
            }
            if (!present && !internalProxies.isEmpty()) {
                RemoteIpValve valve = new RemoteIpValve();
                valve.setRemoteIpHeader("X-Forwarded-For");
                valve.setProtocolHeader("X-Forwarded-Proto");
                valve.setPortHeader("X-Forwarded-Port");
                valve.setHostHeader("X-Forwarded-Host");
                configure(valve);
                factory.addEngineValves(valve);
            }
        }

        private void configure(RemoteIpValve valve) {
            try {
                valve.setInternalProxies(internalProxies);
            }
            catch (IllegalArgumentException e) {
                throw new IllegalStateException("identity.trusted-proxies: " + e.getMessage(), e);
            }
            valve.setTrustedProxies("");
        }

        @Override
        public int getOrder() {
            return Ordered.LOWEST_PRECEDENCE;
        }
    }
}
