/** French. Importing this module registers it: `import '@paykit/elements/locales/fr'`. */
import { registerMessages } from '../messages.js';

registerMessages('fr', {
  pay: 'Payer',
  network: 'Impossible de joindre la boutique. Vérifiez votre connexion et réessayez.',
  timeout: 'La boutique a mis trop de temps à répondre. Veuillez réessayer.',
  invalidAnswer: 'La boutique a envoyé une réponse illisible. Veuillez réessayer.',
  failed: 'Une erreur est survenue. Veuillez réessayer.',
  unsafeUrl: 'L’adresse de paiement n’est pas autorisée par cette page : nous nous sommes arrêtés.',
  noCheckoutOrigins: 'Ce bouton n’a pas de checkout-origins pour vérifier l’adresse de paiement.',
  noReference: 'Cette page a été ouverte sans référence de paiement.',
  checking: 'Confirmation de votre paiement…',
  completed: 'Paiement reçu. Merci !',
  failedPayment: 'Le paiement a échoué : il n’a pas abouti.',
  canceled: 'Le paiement a été annulé.',
  pending: 'Votre paiement est en cours. Actualisez cette page dans une minute.',
  connect: 'Se connecter avec Payments',
  connectMisconfigured: 'Il manque client-id ou scope à ce bouton de connexion.',
  connecting: 'Finalisation de la connexion…',
  connected: 'Connecté à ',
  connectCancelled: 'Connexion annulée. Rien n’a été partagé.',
  connectFailed: 'La connexion n’a pas abouti',
  stateMissing: 'Il manque à cette page les informations de connexion. Recommencez la connexion.',
  stateUnknown: 'Cette connexion n’a pas été lancée dans cet onglet. Recommencez-la.',
  stateExpired: 'Cette connexion a pris trop de temps. Recommencez-la.',
  stateUsed: 'Cette connexion a déjà été traitée.',
});
