package knowledge

// tradeThesaurus widens the thesaurus with the words customers of common small trades use for
// what a business's pages say in their own words: flowers and events, lessons and tests,
// gyms and classes, rentals and tours, food, rooms, repairs, health and pets, an app's account
// and billing, venues, home cleaning and physiotherapy, locks and keys, pharmacies, renting and
// selling homes, catering, removals and storage, tax returns and bookkeeping, cakes to order and
// campsites, by language. Like thesaurus, it is a general vocabulary written from how customers
// talk (colloquial and regional forms too: "arvo", "buttonhole", "trancar", "ponchar", "rulote",
// "melga"), not the words of any one Brain; its groups are read with thesaurus's (thesauri).
var tradeThesaurus = map[string]string{
	"en": `
flowers, flower, bouquet, bouquets, arrangement, arrangements, posy, bunch of flowers, blooms
boutonniere, boutonnieres, buttonhole, buttonholes, corsage, corsages, lapel flower
wilt, wilted, wilting, droop, drooping, droopy, fade, fading, dying, dead flowers
funeral, funerals, sympathy, condolence, condolences, bereavement, memorial, passed away, died, death
anonymous, anonymously, secret admirer, without my name, unsigned
wedding, weddings, bride, bridal, groom, getting married, elopement
deposit, down payment, put down, retainer, hold the date
balance, remaining balance, rest of the money, final payment, outstanding
mock up, mockup, preview, trial run
toxic, poisonous, harmful, dangerous
lesson, lessons, class, classes, session, sessions
instructor, instructors, teacher, teachers, coach, coaches, trainer, trainers, tutor
female, woman, women, lady, ladies
licence, license, licences, licenses, permit, learner, learners, l plates, p plates, provisional
exam, exams, examination, assessment, test
mock test, practice test, practice exam, trial test, pre test
fail, failed, failing, didnt pass, not pass, retest, re test, resit
pass rate, success rate, first time pass
sick, ill, unwell, crook, poorly, flu, covid
rain, raining, rainy, wet, storm, storms, stormy, pouring, bucketing, downpour, weather
unused, leftover, left over, remaining, hours left
manual, stick shift, gearbox
pick up, picks up, pickup, collect, collection, grab, lift, drop off, drop you off
gift, gifts, birthday present, bday, christmas present, present
bundle, bulk, package deal, packages, save money, savings, block of
join, joining fee, sign up fee, signup fee, enrolment fee, enrollment fee, registration fee, admission fee
spinning, spin, spin class, indoor cycling, cycle class, indoor bike
locker, lockers, locker room, changing room, changing rooms, padlock
shower, showers, changing facilities
personal trainer, personal training, pt session
gym, fitness, workout, work out, exercise, training
bike, bikes, bicycle, bicycles, cycle, cycles
ebike, e bike, e bikes, electric bike, electric bikes
scooter, scooters, e scooter, kick scooter
helmet, helmets, lid
puncture, punctured, flat tyre, flat tire, tyre, tire, tyres, tires
battery, batteries, miles per charge
stolen, theft, stole, lost, robbery
child seat, baby seat, kid seat, toddler seat, booster
night, nighttime, evening, tonight, after dark
afternoon, arvo
morning, mornings
noon, midday, lunchtime, lunch time
today, same day, tonight
mom, mum, mother, mommy, mummy
dad, father, daddy
grandpa, grandma, grandfather, grandmother, grandparent, grandparents
menu, menus, dishes, food
takeaway, take away, take out, takeout, to go, collection
room, rooms, suite, stay
haircut, hair cut, trim
color, colour, dye, highlights, tint
cleaning, clean, hygiene, hygienist, scale and polish, check up, checkup
braces, aligners, invisalign, straighten
vet, vets, veterinarian, veterinary
vaccine, vaccines, vaccination, vaccinations, jab, jabs, shots, booster
grooming, dog grooming, pet grooming
leak, leaking, leaks, drip, dripping
blocked, clogged, blockage, clog, backed up
glasses, spectacles, specs, frames, eyewear
contacts, contact lenses, lenses
eye test, eye exam, sight test, eye check
desk, desks, hot desk, workspace
meeting room, conference room, boardroom
dorm, dorms, dormitory, bunk, shared room
private, just us, only us, just me, only me, exclusive, our own, one to one, one on one, individual
swimsuit, swimsuits, swimwear, bathing suit, swimming costume, bikini, bikinis, swim shorts, trunks
underwear, lingerie, briefs, boxers, knickers, bra, bras
reminder, reminders, remind, chase, chasing, nudge, follow up, overdue, unpaid, late payment, late payments
currency, currencies, multi currency, foreign currency, dollars, euros, pounds, usd, eur, gbp
two factor, two factor authentication, 2fa, mfa, authenticator, authenticator app, verification code
accommodation, accomodation, lodging, place to stay, somewhere to stay, where to stay, sleeps, cottage, cottages
alcohol, alcoholic, booze, byo, byob, wine, beer, spirits, corkage
viewing, viewings, look round, look around, show round, show around, open day, open days, come and see
capacity, maximum, max, how many people, how many guests, seated
ceremony, ceremonies, civil ceremony, get married, marry, vows
fireworks, sky lanterns, sparklers, pyrotechnics
commercial, business, businesses, company, companies
locked out, lockout, lockouts, lock out, cant get in, shut out
rekey, rekeying, rekeyed, change the locks, change my locks, new locks
key fob, fob, fobs, remote key, smart key, push to start
canapes, canape, canapés, canapé, finger food, nibbles, hors d oeuvres
grog, booze, alcohol, drinks, byo, bring your own, pint, pints
snacks, snack, sweets, candy, crisps, food
waiter, waiters, wait staff, waitstaff, servers, waitress, waitresses
brekky, brekkie, breakfast, breakfasts
rellies, relatives, relations, family
wake, wakes, funeral, funerals, passed away
unwanted, get rid of, dispose of, disposal, rubbish, junk, recycling centre, recycling center, dump, tip run
movers, mover, removal men, removal man, removers, lads, crew, porters
washing machine, washer, washer dryer, plumb in, plumb back in, plumb the washer
survey, surveys, home visit, video survey, come round, have a look, look at the stuff
write off, write offs, deduct, deduction, deductions, deductible, claim on my taxes
mileage, miles, mileage log, business miles, miles i drive
accountant, accountants, cpa, cpas, enrolled agent, enrolled agents, preparer, preparers, tax preparer
mistake, mistakes, error, errors, screw up, messed up, gets it wrong
extension, extensions, more time to file, extend the deadline
cleanup, clean up, catch up, catch-up, behind on my books, books are a mess
gig worker, gig workers, gig work, uber, lyft, doordash, instacart, rideshare, delivery driver
direct deposit, straight to my bank, into my bank, into my account
pest control, exterminator, exterminators, infestation, infested, critters, vermin
mouse, mice, rodent, rodents, rat, rats
roach, roaches, cockroach, cockroaches
wasp, wasps, hornet, hornets, yellow jacket, yellow jackets, stinging insects
raccoon, raccoons, racoon, racoons
mosquito, mosquitoes, mosquitos, mozzie, mozzies, skeeters
technician, technicians, techs, locksmith, locksmiths, mechanic, mechanics
sofa, sofas, couch, couches, settee, settees, loveseat, loveseats
carer, carers, caregiver, caregivers, companion, companions, support worker, personal assistant
lost property, lost and found, left behind, left it behind, forgot my
screening, screenings, showing, showings, showtime, showtimes, film times, movie times
matinee, matinees, daytime screening, daytime screenings
film, films, movie, movies, flick, flicks
subtitles, subtitled, captions, captioned, closed captions
military, veterans, veteran, armed forces, service members
hayride, hayrides, hay ride, hay rides, hay wagon
wife, husband, spouse, hubby, boyfriend, girlfriend, carer, companion, someone
referral, referrals, refer, refers, referred, refer me, referral letter
stuck, sticking, sticky, jammed
second hand, secondhand, pre owned, preowned, preloved, pre loved, reconditioned, refurbished
remote, remotely, video call, video calls, videocall, zoom, facetime
`,
	"pt": `
trancar, trancamento, congelamento, congelar, pausar, suspender, suspensão
matricula, matrícula, inscrição, adesão, taxa de adesão, taxa de matrícula, taxa de inscrição
universitario, universitária, universitário, faculdade, carteirinha
familia, família, casal, marido, esposa, mulher, namorado, namorada, juntos
conhecer, dia gratis, aula gratis, aula grátis, testar, visitar
spinning, bike indoor, ciclismo indoor, bicicleta ergometrica
luta, lutas, muay thai, boxe, jiu jitsu, artes marciais, kickboxing
academia, ginasio, ginásio, musculação, treino, treinar, malhar
personal, personal trainer, treinador, instrutor
vestiario, vestiário, chuveiro, chuveiros, banho, ducha, balneário, balneários, duche, duches
armario, armário, armários, cadeado, guarda volumes
carro, parar o carro, estacionar o carro, vaga de carro
metrô, metro, estação, estacao
todos os niveis, nivel, niveis, nível, níveis
avaliação, avaliação física, bioimpedância, exame fisico
atestado, atestado medico, exame, exames, laudo
toalha, toalhas
garantir, garantir vaga, lugar na aula
grade, grade de horarios, horários das aulas
de manhã, manhã, cedo, matinal
de noite, noite, noturno, a noite
crianças, criança, kids, infantil, filho, filha
professor, professora, professores, instrutor
iniciante, iniciantes, comecando, começando, nunca treinei
chuva, chover, chovendo, temporal
flores, buquê, buque, arranjo, arranjos, ramo
casamento, noiva, noivo, casar
funeral, velório, coroa de flores, condolências, faleceu
aluguel, alugar, locação, locar
bicicleta, bicicletas, bike, bikes
capacete, capacetes
pneu, pneu furado, furou, furado, câmara de ar
aula, aulas, turma, turmas, sessão, sessões
exame de direção, prova, prova pratica, exame pratico, teste
carteira de motorista, habilitação, cnh, carta de condução
biquíni, biquini, sunga, roupa de banho, moda praia
privado, privada, privados, privadas, particular, particulares, exclusivo, só para nós, só para mim, individual, individuais
roupa intima, roupa íntima, cueca, cuecas, calcinha, sutiã, lingerie
lesão, lesões, lesao, machuquei, machucado, machucada, machucou, contusão, torção, entorse, lesionado, lesionada
reabilitação, recuperação, pós operatório, pós cirúrgico, pós cirúrgica, operei, operado, operada, cirurgia
domiciliar, domicílio, a domicílio, em casa, atendimento domiciliar, visita domiciliar
autorização, autorizar, liberar, liberação, liberado, liberada, aprovação
fisioterapia, fisio, fisioterapeuta, fisioterapeutas
tensão, tensão arterial, pressão arterial, pressão alta, hipertensão
injeção, injeções, injetável, injetáveis, injecção, injecções
canadianas, canadiana, muletas, muleta
fora do prazo, fora de prazo, expirado, expirados, caducado, caducados, validade
validade, vence, vencem, vencer, vencimento, expira, expiram, expirar
cartão de cliente, cartão de desconto, cartão de fidelização, cartão de pontos
rulote, rulotes, roulotte, roulottes, caravana, caravanas, atrelado
autocaravana, autocaravanas, auto caravana, motorhome, camper, campervan
melga, melgas, mosquito, mosquitos, picadas, repelente
botija, botijas, bilha, bilhas, garrafa de gás, garrafas de gás, gás
grelhados, grelhar, grelhador, grelhadores, churrasco, churrascos, churrasqueira, braseiro
fogueira, fogueiras, lume, fazer fogo
eletricidade, electricidade, corrente elétrica, corrente, tomada, tomadas
internet, net, wifi, wi fi
sombra, sombras, à sombra, árvores
escuteiros, escuteiro, escoteiros, escutismo, agrupamento, grupo, grupos
visitas, visita, visitantes, vir ter connosco, receber amigos
praia, praias, praia fluvial, tomar banho no lago
estrelas, ver as estrelas, observação de estrelas, astronomia, céu
supermercado, supermercados, mercearia, minimercado, fazer compras
miúdo, miúdos, miúda, miúdas, criança, crianças
contribuinte, número de contribuinte, nif
equitação, equitacao, montar a cavalo, andar a cavalo, cavalgar, hipismo
hoje, hoje mesmo, ainda hoje, mesmo dia, no mesmo dia, no próprio dia
água sanitária, cloro, alvejante, lixívia
velho, velha, velhos, velhas, antigo, antiga, antigos, antigas
espessura, grossura, milímetros, mm
brinco, brincos, colar, colares, pulseira, pulseiras, bijuteria, bijuterias, bijoux, joia, joias
`,
	"es": `
ponchar, ponchó, ponchada, ponchadura, pinchar, pinchó, pinchazo, pinchadura, pinchaduras, llanta, llantas, neumatico, neumático, goma, rueda
lluvia, llueve, lloviendo, llover, llovizna, tormenta, mal tiempo, aguacero
casco, cascos, protección
bañador, bañadores, traje de baño, bikini, biquini, ropa de baño
ropa interior, calzoncillos, bragas, sujetador, lenceria, lencería
sillita, silla para niño, silla infantil, asiento para niño, portabebé, silla de bebé
tardar, tardo, demorar, entregar tarde, regresar tarde, retraso
bateria, batería, autonomía, autonomia, carga, kilometros, kilómetros, alcance
scooter, scooters, patin electrico, patín eléctrico, patineta
bici, bicis, bicicleta, bicicletas
electrica, eléctrica, electricas, eléctricas, electrico, eléctrico
recorrido, recorridos, tour, tours, paseo, visita guiada, excursión
nocturno, nocturna, de noche, noche, en la noche
privado, privada, privados, privadas, particular, particulares, solo para nosotros, solo para mí, exclusivo, individual, individuales
guia, guía, guias, guías
ingles, inglés, idioma, idiomas, english
festivo, festivos, dia festivo, día festivo, feriado, puente
dolares, dólares, moneda, divisa, divisas, pesos
regresar el dinero, regresan, devuelven, reembolsan
banqueta, banquetas, acera, aceras, vereda
ciclovia, ciclovía, carril bici, ciclovías
edad, edad minima, edad mínima, menores, menor de edad
documentos, documentación, papeles, dni, identificación, identificacion, ine, pasaporte, requisitos
grupo, grupos, amigos, oficina, empresa
flores, ramo, ramos, arreglo, arreglos, bouquet
boda, bodas, novia, novio, casarse
funeral, funeraria, velorio, corona, condolencias, falleció
gimnasio, gym, entrenar, entrenamiento, pesas
clase, clases, sesión, sesiones, curso
instructor, instructora, profesor, profesora, maestro, maestra, entrenador, entrenadora, profe, profes, monitor, monitora, monitores, monitoras
validez, válido, válida, vence, vencen, vencimiento, caduca, caducan, caducidad
snowboard, snow
spinning, ciclismo indoor, bici fija
casillero, casilleros, locker, lockers, taquilla, taquillas, candado
regadera, regaderas, ducha, duchas, vestidor, vestidores
inscripción, inscripcion, matrícula, matricula, cuota de inscripción
examen de manejo, examen practico, prueba de manejo, licencia de manejo, licencia, permiso
manejar, conducir, manejo
niño, niños, niña, niñas, hijo, hija, sobrino, sobrina, peques, menores, menores de edad
sofa, sofas, sofá, sofás, sillon, sillón, sillones, tapiceria, tapicería, tapicerías, tapizado, tapizados
mudanza, mudanzas, mudarme, me mudo, mudarse, nos mudamos, traslado
disponibilidad, hueco, huecos, plaza libre, fecha libre
asistenta, asistentas, limpiadora, limpiadoras, empleada de hogar, señora de la limpieza, chica de la limpieza
ecologico, ecológico, ecologicos, ecológicos, natural, naturales, sin quimicos, sin químicos
tasar, tasás, tasan, tasación, tasaciones, tasamos, valuar, valuación, tasen
cochera, cocheras, garage, garaje, estacionamiento
escribano, escribanos, escribanía, notario, notaría
rescindir, rescisión, romper el contrato, irme antes, dejar el departamento antes
depto, deptos, departamento, departamentos, piso, pisos, monoambiente
velas, vela, velitas, velita
encargar, encargo, encargos, hacer el pedido, ordenar
envío, envíos, envio, envios, enviar, mandar, mandan, a domicilio, entregas a domicilio, servicio a domicilio, entrega a domicilio, llevar a casa, llevarlo a casa, llevármelo a casa
degustación, degustar, probar el pastel, probar los sabores, cata
costo extra, cargo extra, se cobra aparte, aparte, extra
sin gluten, gluten, celiaco, celíaco, celiaca, celíaca, celiaquía
nuez, nueces, frutos secos, cacahuate, cacahuates, maní, almendras
urgente, para hoy, hoy mismo, de último momento, último minuto, mismo día
taller, talleres, curso, cursos, clases
dedicatoria, mensaje, escribir en el pastel, feliz cumpleaños, feliz cumple
cumple, cumpleaños, cumples
devolvemos, devolver, devuelven, regresan, reembolso
carné, carnet, carnés, carnets
errata, erratas, error, errores, fallo, fallos, equivocación
estampar, estampáis, estampado, estampados, estampación, personalizar, personalizamos, personalizado, personalizados, serigrafía
tfg, tfm, trabajo de fin de grado, trabajo de fin de máster, tesis
canarias, tenerife, gran canaria, lanzarote, fuerteventura, la palma, la gomera
baleares, mallorca, menorca, ibiza, formentera
club de vinos, club de vino, club del vino, suscripción, suscripcion
poner, ponen, pones, ponés, ponemos, colocar, colocan, colocás, colocamos, coloca
`,
}
