package com.example.identity.web;

import org.apache.catalina.Container;
import org.apache.catalina.Lifecycle;
import org.apache.catalina.Valve;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Puts {@link EndpointShapedErrorReportValve} in place of every other error report valve of the host. */
@Configuration(proxyBeanMethods = false)
class TomcatConfig {

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> endpointShapedErrors() {
        return factory -> factory.addContextCustomizers(context -> context.addLifecycleListener(event -> {
            if (Lifecycle.BEFORE_START_EVENT.equals(event.getType())) {
                replaceErrorReportValves(context.getParent());
            }
        }));
    }

    static void replaceErrorReportValves(Container host) {
        if (host == null) {
            return;
        }
        boolean present = false;
        for (Valve valve : host.getPipeline().getValves()) {
            if (valve instanceof EndpointShapedErrorReportValve) {
                present = true;
            }
            else if (valve instanceof ErrorReportValve) {
                host.getPipeline().removeValve(valve);
            }
        }
        if (!present) {
            host.getPipeline().addValve(new EndpointShapedErrorReportValve());
        }
    }
}
