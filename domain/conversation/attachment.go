package conversation

import (
	"slices"
	"strings"

	"github.com/svcagent/svc/domain/language"
)

// A customer's message may be a file alone: a picture, a video, a document or a voice note sent
// on the messaging channel without a word typed with it. The agent cannot see or hear it, and
// answers it as every message is answered (one reply, charged as one interaction, with its
// message.replied event): asking, politely, for it in words. Its stored text is AttachmentNote:
// U+FFFC OBJECT REPLACEMENT CHARACTER (the placeholder of an object in text) and the file's kind.

// attachmentMark opens the stored text of a file alone.
const attachmentMark = "\uFFFC"

// AttachmentNote is the stored text of a customer's file sent alone, of kind ("image", "video",
// "document", "audio").
func AttachmentNote(kind string) string { return attachmentMark + " " + kind }

// attachmentKinds are the kinds of file AttachmentNote is written for.
var attachmentKinds = []string{"image", "video", "document", "audio"}

// IsAttachment reports whether message is the stored text of a file sent alone: AttachmentNote of
// one of its kinds, exactly. A typed message holding U+FFFC (text copied with a picture in it, on
// a phone) is a message like any other, answered by its words.
func IsAttachment(message string) bool {
	kind, ok := strings.CutPrefix(message, attachmentMark+" ")
	return ok && slices.Contains(attachmentKinds, kind)
}

// AttachmentAsk is the agent's answer to a file sent alone, in lang: it cannot open it, and asks
// for what the customer wants in words.
func AttachmentAsk(lang, business string) string {
	business = strings.TrimSpace(business)
	switch language.Base(lang) {
	case language.Portuguese:
		return "Obrigado pelo envio! Ainda não consigo abrir imagens, vídeos, áudios nem arquivos por aqui. " +
			"Pode escrever em texto o que precisa? Assim posso ajudar."
	case language.Spanish:
		return "¡Gracias por enviarlo! Todavía no puedo abrir imágenes, vídeos, audios ni archivos por aquí. " +
			"¿Puedes escribir en texto lo que necesitas? Así te puedo ayudar."
	default:
		who := "Thanks for sending that!"
		if business != "" {
			who = "Thanks for sending that to " + business + "!"
		}
		return who + " I can't open pictures, videos, voice notes or files here yet. " +
			"Could you describe in text what you need? Then I can help."
	}
}
