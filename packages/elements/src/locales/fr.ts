/** French. Importing this module registers it: `import '@paykit/elements/locales/fr'`. */
import { registerMessages } from '../messages.js';

registerMessages('fr', {
  pay: 'Payer',
  network: 'Impossible de joindre la boutique. Vérifiez votre connexion et réessayez.',
  timeout: 'La boutique a mis trop de temps à répondre. Veuillez réessayer.',
  failed: 'Une erreur est survenue. Veuillez réessayer.',
  misconfigured: 'Ce bouton n’est pas configuré correctement.',
  noReference: 'Cette page a été ouverte sans référence de paiement.',
  checking: 'Confirmation de votre paiement…',
  completed: 'Paiement reçu. Merci !',
  failedPayment: 'Le paiement a échoué.',
  canceled: 'Le paiement a été annulé.',
  stillConfirming: 'Nous confirmons encore votre paiement. Ne payez pas une seconde fois.',
  notCompleted: 'Le paiement n’a pas abouti.',
  reference: 'Référence : ',
  tryAgain: 'Réessayer',
  checkAgain: 'Vérifier à nouveau',
  connect: 'Se connecter avec Payments',
  connecting: 'Finalisation de la connexion…',
  connected: 'Connecté à ',
  connectCancelled: 'Connexion annulée. Rien n’a été partagé.',
  connectFailed: 'La connexion n’a pas abouti. Veuillez vous reconnecter.',
  stateUsed: 'Cette connexion a déjà été traitée.',
  connectAgain: 'Se reconnecter',
});
