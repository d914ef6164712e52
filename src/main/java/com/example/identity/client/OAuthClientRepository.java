package com.example.identity.client;

import java.util.List;
import java.util.Optional;

import org.springframework.data.jpa.repository.JpaRepository;

interface OAuthClientRepository extends JpaRepository<OAuthClient, Long> {

    Optional<OAuthClient> findByClientId(String clientId);

    List<OAuthClient> findByOwnerIdOrderByCreatedAtDesc(long ownerId);

    List<OAuthClient> findAllByOrderByCreatedAtDesc();
}
