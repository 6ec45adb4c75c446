package knowledge

// regionalThesaurus widens the thesaurus with the words one country's customers use for what a
// business of another country of the same language writes in its own: a Brazilian visitor's
// "chuveiro" for a Portuguese campsite's "duches", "café da manhã" for "pequeno-almoço", a
// Mexican customer's "computadora" for a Madrid shop's "ordenador", "manejar" for "conducir", and
// the regional words for children: Scotland's "weans" and "bairns", the Brazilian south's "guris"
// and "piás", Chile's "cabros chicos", the River Plate's "gurises". Not "guria" (a girl, and a
// girlfriend) nor Colombia's "pelados" (children, and the bald or the broke).
// Only words of one meaning in both countries are paired, folded as the index folds them: not pt
// "fato" (a suit in Portugal, a fact in Brazil), "propina" (a fee, a bribe), "apelido" (a
// surname, a nickname), "tela" (a canvas, a screen), "maiô" (folded, the month "maio") or
// "grama" (a lawn, a gram), nor es "piso" (a flat, a floor), "renta" (rent, income tax), "llave"
// (a tap, a key), "manteca" (butter, lard), "colectivo" (a bus, collective), "metro" (the
// underground, a metre) or "entrada" (a ticket, an entrance, a starter). Like
// thesaurus, it is a general vocabulary, not the words of any one Brain; its groups are read
// with thesaurus's (thesauri).
var regionalThesaurus = map[string]string{
	"en": `
child, children, kid, kids, wean, weans, bairn, bairns
`,
	"pt": `
duche, duches, chuveiro, chuveiros
casa de banho, casas de banho, banheiro, banheiros, sanitarios, wc, lavabo, lavabos
pequeno almoço, pequenos almoços, café da manhã
telemovel, telemóvel, telemóveis, celular, celulares
autocarro, autocarros, ônibus, onibus
comboio, comboios, trem, trens
frigorifico, frigorífico, frigoríficos, geladeira, geladeiras
talho, talhos, açougue, açougues
sumo, sumos, suco, sucos
fato de banho, fatos de banho, roupa de banho, roupas de banho
registo, registar, registar me, cadastro, cadastrar, cadastrar me
bilhete, bilhetes, ingresso, ingressos
carta de condução, carteira de motorista, carteira de habilitação, cnh
portagem, portagens, pedágio, pedágios
montra, montras, vitrine, vitrines
multibanco, caixa eletrônico, caixa automático, atm
cacifo, cacifos, armário, armários, locker, lockers
equipa, equipas, equipe, equipes
ficheiro, ficheiros, arquivo, arquivos
canalizador, canalizadores, encanador, encanadores
esquentador, esquentadores, aquecedor de água, aquecedores de água
reboque, guincho
boleia, boleias, carona, caronas
relva, relvado, gramado
casaco, casacos, jaqueta, jaquetas
amendoim, amendoins, frutos secos
criança, crianças, guri, guris, piá, piás
`,
	"es": `
coche, coches, carro, carros, auto, autos, automóvil, automóviles
movil, móvil, móviles, celular, celulares
ordenador, ordenadores, computadora, computadoras, computador, computadores, pc, portátil, portátiles, laptop, laptops
zumo, zumos, jugo, jugos
gafas, lentes, anteojos
aparcamiento, estacionamiento, parqueadero, parqueaderos, parqueo, cochera
billete, billetes, boleto, boletos, ticket, tickets
conducir, manejar
alquilar, alquiler, rentar, arrendar, arriendo
reserva, reservas, reservación, reservaciones
patata, patatas, papa, papas
aguacate, aguacates, palta, paltas
camarero, camareros, camarera, mesero, meseros, mesera, mozo, moza
nevera, neveras, frigorífico, refrigerador, heladera
fontanero, fontaneros, plomero, plomeros, gasfitero
grifo, grifos, canilla, canillas
ascensor, ascensores, elevador, elevadores
autobús, autobuses, bus, ómnibus, omnibus
ducha, duchas, regadera, regaderas
aseo, aseos, sanitarios, wc, lavabo, lavabos
chaqueta, chaquetas, chamarra, chamarras, campera, camperas
camiseta, camisetas, remera, remeras, playera, playeras, polera, poleras
piscina, piscinas, alberca, albercas, pileta, piletas
fresa, fresas, frutilla, frutillas
melocotón, melocotones, durazno, duraznos
cacahuete, cacahuetes, cacahuate, cacahuates, maní, manises, frutos secos
gambas, camarones
enchufe, enchufes, tomacorriente, tomacorrientes
niño, niños, cabros chicos, gurises, chamacos, chibolos
`,
}
