// Package channel names the channels the agent talks on: the customer channels (the API, the
// website chat, messaging) and the owner's own channel (the assistant). It is a leaf: it imports
// nothing of the module, so that every domain package may use it.
package channel

// Channel is where a conversation happens (the message.replied event's data.channel).
type Channel string

// The channels.
const (
	API       Channel = "api"
	Web       Channel = "web"
	Messaging Channel = "messaging"
	// Owner is the account owner's own assistant: the one channel that is not a customer's.
	Owner Channel = "owner"
)

// Customer reports whether the channel serves the business's customers (the customers-only
// rule applies to it).
func (c Channel) Customer() bool {
	switch c {
	case API, Web, Messaging:
		return true
	}
	return false
}

// Links reports whether the channel shows a reply's actions as links in its text: messaging has
// no buttons. The API and the website chat carry the actions structured beside the text.
func (c Channel) Links() bool { return c == Messaging }
